/**
 * Asked quantities: "what is the bandwidth", "how much current", "what torque" ask for a value of
 * a kind (hertz, amperes, newton-metres), and an answer that states no such value does not answer,
 * however many of the question's words it shares. The extractive answer uses this to look for the
 * sentence that states the value, and to decline when the passages state none ("the manual
 * mentions the device, but not the asked property").
 */

export interface QuantityKind {
  name: string;
  /** Words in the asked phrase that ask for this kind. */
  cue: RegExp;
  /** A value of this kind in a passage (a number and its unit). */
  value: RegExp;
}

const N = String.raw`\d(?:[.,]\d+)?\s?`;

export const QUANTITY_KINDS: readonly QuantityKind[] = [
  { name: 'voltage', cue: /\b(voltages?|volts?)\b/, value: new RegExp(`${N}(?:[mk]?V(?:DC|AC)?|volts?)\\b`, 'i') },
  // Amperes: the unit is case-sensitive, so the article "a" after a number does not count.
  { name: 'current', cue: /\b(currents?|amperage|fuses?)\b/, value: new RegExp(`${N}(?:[mµμu]?A|amps?|amperes?)\\b`) },
  // "power" as the thing asked ("how much total power must …", "power consumption"), not as a
  // modifier ("which power chip", "power supply").
  {
    name: 'power',
    cue: /\bpower(?=\s*$|\s+(consumption|draw|rating|output|dissipation|requirements?|must|can|does|do|is|will|should)\b)|\bwattage\b/,
    value: new RegExp(`${N}(?:[mkM]?W|watts?|VA)\\b`),
  },
  { name: 'frequency', cue: /\b(frequency|frequencies|bandwidth)\b/, value: new RegExp(`${N}[kmgKMG]?Hz\\b`, 'i') },
  { name: 'capacity', cue: /\b(capacity)\b/, value: new RegExp(`${N}(?:m?Ah|Wh)\\b`, 'i') },
  { name: 'length', cue: /\b(length|distance|width|height|depth)\b/, value: new RegExp(`${N}(?:mm|cm|m|km|ft|feet|inch(?:es)?|met(?:er|re)s?)\\b`, 'i') },
  { name: 'weight', cue: /\b(weight|weigh|weighs|heavy|mass)\b/, value: new RegExp(`${N}(?:g|kg|lbs?|grams?)\\b`, 'i') },
  { name: 'temperature', cue: /\b(temperatures?)\b/, value: new RegExp(`${N}(?:°\\s?[CF]|℃|deg(?:rees)?\\s?[CF]?\\b)`, 'i') },
  { name: 'pressure', cue: /\b(pressures?)\b/, value: new RegExp(`${N}(?:m?bar|psi|[kM]?Pa)\\b`) },
  { name: 'torque', cue: /\b(torques?)\b/, value: new RegExp(`${N}(?:N\\s?·?\\s?m|Nm)\\b`, 'i') },
  { name: 'impedance', cue: /\b(impedance|resistance)\b/, value: new RegExp(`${N}(?:[kmMµμ]?(?:Ω|ohms?))`, 'i') },
  { name: 'capacitance', cue: /\b(capacitance)\b/, value: new RegExp(`${N}[pnuµμ]F\\b`) },
  {
    name: 'time',
    cue: /\b(how often|interval|intervals|mtbf|lifetime|life time|service life)\b/,
    // "every 500 operating hours": one word may sit between the number and the unit.
    value: new RegExp(`${N}(?:[a-z]+\\s)?(?:ms|s|sec|seconds?|min|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?)\\b|\\b(?:daily|weekly|monthly|yearly|annually)\\b`, 'i'),
  },
];

// "what is the …", "which …", "how much …": the phrase after them is what the question asks for.
const ASK = /\b(?:what|which|how much|how many|how often)\b(?:'s|\s+(?:is|are|was|were))?(?:\s+(?:the|its|their|a|an))?/gi;
const PHRASE_WORDS = 5;

/**
 * The phrases a question asks for: the words after "what is the", "which", "how much" … up to
 * punctuation or a new clause, at most five ("What is the warranty period?" → "warranty period").
 */
export function askedPhrases(question: string): string[] {
  const q = question.toLowerCase().replace(/[\u2010-\u2015\u2212]/g, '-');
  const phrases: string[] = [];
  for (const m of q.matchAll(ASK)) {
    const rest = q.slice(m.index! + m[0].length);
    const phrase = rest.split(/[,;?!()]|\band\b|\bor\b/)[0].trim().split(/\s+/).slice(0, PHRASE_WORDS).join(' ');
    // "How often …" asks for an interval whatever follows ("… does the battery need replacing").
    phrases.push(m[0].startsWith('how often') ? 'how often' : phrase);
  }
  return phrases;
}

/** The quantity kinds the question asks for (none for "how do I …" or "which driver …"). */
export function askedQuantities(question: string): QuantityKind[] {
  const phrases = askedPhrases(question);
  return QUANTITY_KINDS.filter((k) => phrases.some((p) => k.cue.test(p)));
}

/**
 * Head nouns that say little on their own: in "warranty period" or "viscosity grade" the modifier
 * names the property. A passage that has only the head ("sweep period") does not answer.
 */
export const VAGUE_HEADS: ReadonlySet<string> = new Set(
  'period type kind value values number size range level rating mode setting settings time version class grade status'.split(' '),
);

export function statesQuantity(text: string, kind: QuantityKind): boolean {
  return kind.value.test(text);
}
