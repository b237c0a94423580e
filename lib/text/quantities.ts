/**
 * Asked quantities: "what is the bandwidth", "how much current", "in microvolts" ask for a value
 * of a kind (hertz, amperes, volts), and a passage that states no value of that kind does not
 * answer, however many of the question's words it shares.
 *
 * Units and their kinds come from js-quantities (its unit definitions, prefixes and aliases: "80A"
 * and "3.3 V" are a current and a potential, "kΩ" a resistance, "kbps" an information rate). The
 * names of the quantities (what a technician calls a potential: "voltage") are the SI/ISO 80000
 * quantity names, mapped once to the library's kinds below.
 */
import Qty from 'js-quantities';
import { normalize } from './analyze';

/** Quantity names (SI brochure, ISO 80000) → the js-quantities kind of their values. */
const QUANTITY_NAMES: Record<string, string[]> = {
  potential: ['voltage', 'potential'],
  current: ['current', 'amperage'],
  power: ['power', 'wattage'],
  // js-quantities files N·m under energy: a torque and an energy share the dimension.
  energy: ['energy', 'torque', 'work'],
  frequency: ['frequency', 'bandwidth'],
  resistance: ['resistance', 'impedance'],
  capacitance: ['capacitance'],
  inductance: ['inductance'],
  charge: ['charge', 'capacity'],
  temperature: ['temperature'],
  pressure: ['pressure'],
  force: ['force'],
  mass: ['mass', 'weight'],
  length: ['length', 'width', 'height', 'depth', 'distance', 'diameter', 'thickness', 'wavelength'],
  time: ['time', 'duration', 'interval', 'delay', 'lifetime'],
  speed: ['speed', 'velocity'],
  information_rate: ['bit rate', 'data rate', 'baud rate'],
};
const KIND_OF_NAME = new Map(Object.entries(QUANTITY_NAMES).flatMap(([kind, names]) => names.map((n) => [n, kind] as const)));

/** Logarithmic units js-quantities does not define: decibels referred to a milliwatt, a watt, a volt. */
const LOG_UNITS: Record<string, string> = { dBm: 'power', dBW: 'power', dBV: 'potential', dBu: 'potential', dBmV: 'potential', dBuV: 'potential' };

const kindCache = new Map<string, string | null>();

/** The kind of a unit as written ("mA" → current, "kΩ" → resistance), or null for none. */
export function unitKind(unit: string): string | null {
  const cached = kindCache.get(unit);
  if (cached !== undefined) return cached;
  let kind: string | null = LOG_UNITS[unit] ?? null;
  // Symbols js-quantities spells differently: "°C" is degC, "Nm" N*m, "Ω" ohm (it misreads "MΩ").
  const spelled = unit
    .replace(/^°([CFK])$/, 'deg$1')
    .replace(/^([kMm]?)Nm$/, '$1N*m')
    .replace(/[Ωω]$/, 'ohm');
  // It is case-sensitive ("mA" ≠ "MA") and knows singular names: try as written first.
  // A plural is tried singular only for names ("volts"), not symbols: "pins" is not pico-inches.
  const singular = unit.length > 4 ? [unit.replace(/s$/, ''), unit.toLowerCase().replace(/s$/, '')] : [];
  const variants = [spelled, unit, unit.toLowerCase(), ...singular];
  for (const v of kind ? [] : variants) {
    try {
      const q = Qty.parse(`1 ${v}`);
      if (q && q.kind() && q.kind() !== 'unitless') {
        kind = q.kind();
        break;
      }
    } catch {
      // not a unit
    }
  }
  kindCache.set(unit, kind);
  return kind;
}

// A number and the unit after it; a letter may precede the number ("T6.3A", a fuse marking).
// The unit ends the token: "1 T6.3A" is not 1 T6 but a fuse marking holding 6.3 A.
const VALUE = /(?<![\d.])[-+±]?\d+(?:[.,]\d+)?\s?(°?[\p{L}Ωµμ%][\p{L}Ωµμ/·*]*\d?)(?![\p{L}\d]|\.\d)/gu;

/** The kinds of the values a text states ("3.5A max, 24 V" → current, potential). */
export function valueKinds(text: string): Set<string> {
  const kinds = new Set<string>();
  for (const m of text.normalize('NFKC').matchAll(VALUE)) {
    const kind = unitKind(m[1].replace(/[.,;:]+$/, ''));
    if (kind) kinds.add(kind);
  }
  return kinds;
}

/**
 * The kinds a question asks for: a quantity named in the phrase it asks for, unless it only
 * modifies the phrase's first word ("power supply", "current meter" ask for no power or current),
 * and a unit it asks for by name ("in microvolts"; a symbol after a number, "24 V", is a given).
 */
export function askedKinds(question: string, askedPhrase: string | undefined): Set<string> {
  const kinds = new Set<string>();
  const ws = askedPhrase ? normalize(askedPhrase).split(/\s+/) : [];
  ws.forEach((w, i) => {
    const pair = i > 0 ? KIND_OF_NAME.get(`${ws[i - 1]} ${w}`) : undefined;
    const single = KIND_OF_NAME.get(w);
    const modifierOnly = i === 0 && ws.length > 1;
    if (pair) kinds.add(pair);
    else if (single && !modifierOnly) kinds.add(single);
  });
  for (const m of question.matchAll(/\bin\s+(\p{L}{3,})\b/gu)) {
    const kind = unitKind(m[1]);
    if (kind) kinds.add(kind);
  }
  return kinds;
}
