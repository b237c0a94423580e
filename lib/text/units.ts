/**
 * The unit table: SI prefixes × the base units of electrical, mechanical and data specifications,
 * plus the units that take no prefix. Lower case (the analyzer lower-cases first), so "mV" and
 * "MV" meet; a manual never needs the difference to find a page. NFKC has already turned the
 * micro sign into Greek mu and "Ω" (ohm sign) into Greek omega.
 *
 * It is not derived from js-quantities (quantities.ts), which answers another question: a unit's
 * kind, case-sensitively ("mA" ≠ "MA"), from thousands of definitions. The tokenizer needs a
 * closed, case-free set that also holds what is no physical quantity (AWG, V/div, baud, bytes),
 * and stays short: every word it accepts is joined to its number in the search index, so a change
 * to it changes what every page is indexed as.
 */
const PREFIXES = ['', 'p', 'n', 'u', 'μ', 'm', 'c', 'k', 'g', 't'];
const PREFIXABLE = ['v', 'a', 'w', 'va', 'hz', 'ω', 'ohm', 'ohms', 'f', 'h', 's', 'm', 'g', 'pa', 'b', 'bit', 'bits', 'bps', 'wh', 'ah', 'j', 'n', 'l', 'sps'];
const PLAIN = [
  'vdc',
  'vac',
  'vrms',
  'vpp',
  'db',
  'dbm',
  'dbi',
  'dbc',
  'c',
  '°c',
  'f',
  '°f',
  'k',
  '%',
  'rpm',
  'baud',
  'bar',
  'psi',
  'nm',
  'mm2',
  'awg',
  'ppm',
  'lux',
  'v/div',
  's/div',
  'ms/s',
  'gs/s',
  'ks/s',
  'byte',
  'bytes',
  'min',
  'h',
  'hr',
  'hrs',
  'in',
  'ft',
  'lb',
  'lbs',
  'oz',
  'deg',
];

const UNITS: ReadonlySet<string> = new Set([...PREFIXES.flatMap((p) => PREFIXABLE.map((u) => p + u)), ...PLAIN]);

export function isUnit(word: string): boolean {
  return UNITS.has(word);
}
