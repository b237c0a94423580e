/**
 * Applicability: whether the evidence is about the device the question asks about. Another
 * device's value (a baud rate, a rating) would mislead a technician, so the answer declines:
 *   - a device no manual of the library mentions ("Rigol DP832"): not covered;
 *   - a variant of a model the library lists other variants of but never this one ("Zentro QX-40C"
 *     when the manual writes "QX-40A/B"): not covered. A variant the manual writes, or one of a
 *     model the manual names no variant of at all ("QX-40A" beside a plain "QX-40"), is covered;
 *   - a device whose only manual is still being processed: not ready yet;
 *   - a device of another retrieved manual than the one the answer would quote: that manual does
 *     not say.
 */
import { words } from '@/lib/text/analyze';
import { designations, designationTokens, modelCore, modelMentions, variantOf } from '@/lib/device/designations';
import { identityTokens, nameText } from '@/lib/device/tokens';
import type { ModelLookup, PendingManual } from './hits';
import type { Reading } from './select';

/** What the check needs of the library index (lib/ranking/library-index.ts). */
interface Mentions {
  mentions(word: string): boolean;
  modelVariants(word: string): { written: boolean; others: string[] };
}

/**
 * The words a search looks up in the library for the checks below: a query's designations
 * ("QX-40C", "E05"), and the model of a maker + model that reads as a value ("Wendel 87V"). Any of
 * them may be a variant the library lists others of; only a maker + model no manual mentions is
 * an unknown device (a code or pin the library never writes is not a device).
 */
export function designationsToLookUp(query: string): string[] {
  return [...new Set([...designations(query), ...modelMentions(query).map((m) => m.model)])];
}

/** A search's report on a query's model names: known, and the variants the library lists instead. */
export function lookUpModels(query: string, index: Mentions): Omit<ModelLookup, 'query' | 'notReady'> | undefined {
  const lookUp = designationsToLookUp(query);
  if (!lookUp.length) return undefined;
  const known = Object.fromEntries(lookUp.map((w) => [w, index.mentions(w)]));
  const variants: Record<string, string[]> = {};
  for (const w of lookUp) {
    const { written, others } = index.modelVariants(w);
    if (!written && others.length) variants[w] = others;
  }
  return { known, ...(Object.keys(variants).length ? { variants } : {}) };
}

/** The query's designations (every one, maker or not) no ready manual mentions: candidates for a manual still processing. */
export function unmentionedDesignations(query: string, index: Mentions): string[] {
  return [...new Set([...designations(query), ...modelMentions(query).map((m) => m.model)])].filter((w) => !index.mentions(w));
}

/** Designation → the pending manual whose title or file name names its model ("HX-200" → "Acme HX-200 Manual"). */
export function pendingManualsNaming(designationWords: readonly string[], pending: readonly PendingManual[]): Record<string, PendingManual> {
  const out: Record<string, PendingManual> = {};
  for (const w of designationWords) {
    const core = modelCore(w);
    const manual = pending.find((m) => words(nameText(m, ' ')).some((t) => modelCore(t) === core));
    if (manual) out[w] = manual;
  }
  return out;
}

/** The query's token for a designation word, as the question writes it ("qx-40c" → "QX-40C"). */
function asWritten(query: string, word: string): string {
  const tokens = [...designationTokens(query), ...identityTokens(query)];
  return tokens.find((t) => words(t)[0] === word) ?? word.toUpperCase();
}

/** Variants the question names that the library's manuals do not list, with the ones they do list, as written. */
export function uncoveredVariants(lookups: readonly ModelLookup[]): Array<{ asked: string; listed: string[] }> {
  const out = new Map<string, string[]>();
  for (const { query, variants } of lookups) {
    for (const [w, others] of Object.entries(variants ?? {})) {
      const asked = asWritten(query, w);
      const suffix = variantOf(w)!.suffix;
      const stem = asked.slice(0, asked.length - suffix.length);
      const upper = asked.slice(-suffix.length) === asked.slice(-suffix.length).toUpperCase();
      const listed = others.map((o) => stem + (upper ? o.slice(variantOf(o)!.stem.length).toUpperCase() : o.slice(variantOf(o)!.stem.length)));
      if (!out.has(asked)) out.set(asked, listed);
    }
  }
  return [...out].map(([asked, listed]) => ({ asked, listed }));
}

/** Devices the question names whose only manual is still processing, as written, with its progress. */
export function devicesNotReady(lookups: readonly ModelLookup[]): Array<{ device: string; percent?: number }> {
  const out = new Map<string, number | undefined>();
  for (const { query, notReady } of lookups)
    for (const [w, m] of Object.entries(notReady ?? {})) if (!out.has(asWritten(query, w))) out.set(asWritten(query, w), m.percent);
  return [...out].map(([device, percent]) => ({ device, ...(percent !== undefined ? { percent } : {}) }));
}

/**
 * Maker + model names ("Rigol DP832") of queries whose models the library mentions none of
 * ("… the Acme HX-200 from a Mean Well LRS-350" is about the HX-200). Each mention's model is
 * one of those designations, so then it is unknown too.
 */
export function unknownDevices(lookups: readonly ModelLookup[]): string[] {
  const out = new Set<string>();
  for (const { query, known, variants = {}, notReady = {} } of lookups) {
    // A model the library lists other variants of, or whose manual is processing, is said so instead.
    const mentioned = modelMentions(query).filter((m) => !variants[m.model] && !notReady[m.model]);
    if (mentioned.length && !Object.values(known).some(Boolean)) for (const m of mentioned) out.add(m.text);
  }
  return [...out];
}

/** The question names the device of the manual the answer quotes. */
function namesDevice(r: Reading, manualId: string): boolean {
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
