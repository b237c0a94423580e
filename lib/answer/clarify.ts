/**
 * The fourth reply form, `clarify`: "Which device?". When the question names no device,
 * the chat has none, and the closest pages span two or more devices with no clear margin, a stated
 * value from whichever device ranked first would be a guess: the reply asks instead, with the
 * candidate devices as choices (each with its best page) and the closest pages grouped by device.
 *
 * The margin is the top device's share of the rank weight of the closest pages (1/rank over the
 * first distinct pages, copies of one manual counted as one device): at or above `maxTopShare`
 * one device clearly leads and the reply answers from it. `maxTopShare` is chosen under
 * leave-one-manual-out cross-validation by the eval (lib/eval/clarify-cv.ts) and ships in
 * ./clarify.json. A question that refers to a kind of device ("the regulator") that two or more
 * devices of the library are (lib/device/identity.ts `manualsOfKind`) narrows the candidates to
 * them, wherever their pages rank: another sort of device's pages leading is no answer to it.
 * One device of the kind is left to the search's scope (lib/ranking/named-device.ts `namedKind`).
 */
import { deviceKey } from '@/lib/device/identity';
import { truncate } from '@/lib/text/format';
import shipped from './clarify.json';
import { closestPages, type PageCard } from './closest-pages';
import type { RefHit } from './hits';

export interface ClarifyPolicy {
  /** Ask when the top device's share of the closest pages' rank weight is below this; 0 never asks. */
  maxTopShare: number;
}

/** A device the reply offers: its manual, its name and its best page. */
export interface DeviceChoice {
  manualId: string;
  /** The device as labels say it ("HX-200 controller"). */
  name: string;
  manualTitle: string;
  /** Its best page among the closest pages. */
  page: number;
  heading?: string;
  snippet: string;
  previewUrl: string;
}

export interface ClarifyReading {
  /** The top device's share of the rank weight, 0–1 (1: one device only). */
  topShare: number;
  /** Candidate devices, most likely first (one manual each: the best-ranked copy). */
  choices: DeviceChoice[];
  /** The closest pages grouped by device, in the order of the choices. */
  pages: PageCard[];
}

/** Distinct pages weighed for the margin. */
const MARGIN_PAGES = 10;
/** At most this many devices offered. */
const MAX_CHOICES = 4;
/** Closest pages shown per device below the choices. */
const PAGES_PER_DEVICE = 2;

/** The threshold chosen on every public question set; a turn passes its own (AgentServices.policies). */
export const SHIPPED_CLARIFY_POLICY: ClarifyPolicy = shipped;

/**
 * How the closest pages split over devices. `nameOf` gives a manual's device name; `kindManuals`
 * the manuals whose kind the question refers to (empty: none), which narrow the candidates when
 * two or more devices of them were retrieved.
 */
export function readDevices(hits: readonly RefHit[], nameOf: (manualId: string) => string, kindManuals: readonly string[] = []): ClarifyReading {
  const device = (c: PageCard) => deviceKey({ title: c.manualTitle ?? '', fileName: c.manualId });
  const all = closestPages(hits, Infinity);
  const ofKind = new Set(kindManuals);
  const kindPages = all.filter((c) => ofKind.has(c.manualId));
  const narrowed = new Set(kindPages.map(device)).size >= 2 ? kindPages.slice(0, MARGIN_PAGES) : all.slice(0, MARGIN_PAGES);
  const weight = new Map<string, number>();
  const best = new Map<string, PageCard>();
  narrowed.forEach((c) => {
    const key = device(c);
    // The rank among all closest pages: a kind narrows who is asked about, not how pages rank.
    weight.set(key, (weight.get(key) ?? 0) + 1 / (all.indexOf(c) + 1));
    if (!best.has(key)) best.set(key, c);
  });
  // Shares of every closest page counted, so another sort of device leading leaves the kind's devices a small share.
  const counted = new Set([...all.slice(0, MARGIN_PAGES), ...narrowed]);
  const total = [...counted].reduce((sum, c) => sum + 1 / (all.indexOf(c) + 1), 0);
  const order = [...weight].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  const topShare = total ? weight.get(order[0])! / total : 1;
  const choices = order.slice(0, MAX_CHOICES).map((k): DeviceChoice => {
    const c = best.get(k)!;
    return {
      manualId: c.manualId,
      name: nameOf(c.manualId),
      manualTitle: c.manualTitle ?? nameOf(c.manualId),
      page: c.page,
      ...(c.heading ? { heading: c.heading } : {}),
      snippet: truncate(c.snippet, 160),
      previewUrl: c.previewUrl,
    };
  });
  const shown = new Set(order.slice(0, MAX_CHOICES));
  const pages = order.flatMap((k) => (shown.has(k) ? narrowed.filter((c) => device(c) === k).slice(0, PAGES_PER_DEVICE) : []));
  return { topShare, choices, pages };
}

/** Whether to ask: two or more devices and no clear margin. */
export function shouldClarify(r: ClarifyReading, policy: ClarifyPolicy = SHIPPED_CLARIFY_POLICY): boolean {
  return r.choices.length >= 2 && r.topShare < policy.maxTopShare;
}

/** The reply's words: the question, then which devices the closest pages are from. */
export function clarifySentence(r: ClarifyReading): string {
  const names = r.choices.map((c) => c.name);
  const list = names.length === 2 ? `${names[0]} or ${names[1]}` : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return `Which device? The closest pages are from ${r.choices.length} manuals: ${list}. Pick one and I will answer from its manual.`;
}
