/**
 * Applicability: whether the evidence is about the device the question asks about. Another
 * device's value (a baud rate, a rating) would mislead a technician, so the answer declines:
 *   - a device no manual of the library mentions ("Rigol DP832"): not covered;
 *   - a device of another retrieved manual than the one the answer would quote: that manual does
 *     not say.
 */
import { designations, modelMentions } from '@/lib/text/designations';
import type { Reading } from './select';

/** What a search found out about a query's model names: designation → the library mentions it. */
export interface ModelLookup {
  query: string;
  known: Record<string, boolean>;
}

/**
 * The words a search looks up in the library for the check below: a query's model designations
 * when it names a device by maker and model ("Rigol DP832"), else none.
 */
export function designationsToLookUp(query: string): string[] {
  return modelMentions(query).length ? designations(query) : [];
}

/**
 * Maker + model names ("Rigol DP832") of queries whose models the library mentions none of
 * ("… the Acme HX-200 from a Mean Well LRS-350" is about the HX-200). Each mention's model is
 * one of those designations, so then it is unknown too.
 */
export function unknownDevices(lookups: readonly ModelLookup[]): string[] {
  const out = new Set<string>();
  for (const { query, known } of lookups) {
    const mentioned = modelMentions(query);
    if (mentioned.length && !Object.values(known).some(Boolean)) for (const m of mentioned) out.add(m.text);
  }
  return [...out];
}

/** The question names the device of the manual the answer quotes. */
export function namesDevice(r: Reading, manualId: string): boolean {
  return [...r.topics.get(manualId)!].some((t) => r.qTerms.includes(t));
}

/**
 * The manual whose device the question names instead, when the answer's manual is not it: that
 * manual had nothing to quote (the selection would have put it first). Unless the evidence's own
 * passages name that device too (a copy or revision of its manual under another title): then it
 * is the same device's manual.
 */
export function otherDeviceAsked(r: Reading, manualId: string): string | undefined {
  if (namesDevice(r, manualId)) return undefined;
  const namedIn = (t: string) => r.passages.some((p) => p.hit.manualId === manualId && p.terms.has(t));
  return [...r.topics].find(([id, ts]) => {
    const deviceTerms = [...ts].filter((t) => r.qTerms.includes(t));
    return id !== manualId && deviceTerms.length > 0 && !deviceTerms.every(namedIn);
  })?.[0];
}
