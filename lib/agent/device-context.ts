/**
 * Which manuals a turn searches, and why. A chat knows which device it is about:
 *   1. the manuals the user picked (the scope), when they are not the whole library;
 *   2. else the device this question names (lib/ranking/named-device.ts): one manual → that manual;
 *   3. else the chat's device context: the device an earlier question named, until the user clears
 *      it or a question names another device (then the context moves to that one);
 *   4. else every manual.
 * A name two manuals match equally ("Acme" with two Acme controllers) is ambiguous: nothing is
 * filtered and the trail says so; a context among those manuals stays (it already told them apart).
 *
 * The named device's pages come first in the final ranking ('first'; hybrid_search puts them ahead
 * of the rest): measured under leave-one-manual-out CV against searching its manuals alone
 * ('scope') and against no filter ('off'), see docs/eval.md: 'first' is never below
 * 'off' on any public set, 'scope' is (the ranker's features, scaled within the candidates, lose
 * the library's other manuals as a contrast). Both keep another device's page from rank 1. A scope
 * the user picked is a filter. The turn passes its policy (AgentServices.policies).
 */
import type { NamedDevice } from '@/lib/ranking/named-device';
import { joinWithAnd } from '@/lib/text/format';

/** The device a chat is about, as stored with the chat. */
export interface DeviceContext {
  manualIds: string[];
  /** Its name, as the chip shows it ("HX-200"). */
  device: string;
  /** The question (1-based, in the chat) that named it. */
  turn: number;
}

export type NamedDevicePolicy = 'scope' | 'first' | 'off';

export const SHIPPED_NAMED_DEVICE_POLICY: NamedDevicePolicy = 'first';

/** What a turn searches. */
export interface TurnScope {
  /** The search filter; undefined = every manual. */
  manualIds: string[] | undefined;
  /** Manuals whose pages the final ranking puts first (policy 'first'). */
  preferManualIds?: string[];
  /** The trail's sentence: which scope and why. */
  reason: string;
  /** The chat's device context after this turn. */
  context: DeviceContext | null;
  /** The manuals an ambiguous name matched. */
  ambiguous?: string[];
  /** This question names the device searched first (not only the chat or a pick). */
  named?: boolean;
}

export interface ScopeInput {
  /** The manuals the user picked; undefined or the whole library = no pick. */
  picked: string[] | undefined;
  /** What this question names (within the picked manuals). */
  named: NamedDevice;
  /** The chat's device context before this turn. */
  context: DeviceContext | null | undefined;
  /** This question's number in the chat (1 = first). */
  turn: number;
  /** A manual's title, for the trail. */
  titleOf: (manualId: string) => string;
  /** Default: the shipped policy. */
  policy?: NamedDevicePolicy;
}

const namedIn = (c: DeviceContext, turn: number) =>
  `${c.turn === turn ? 'named in this question' : c.turn === 1 ? 'named in your first question' : `named in question ${c.turn}`} ("${c.device}")`;
const sameManuals = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

/** The scope of a turn (see the header). */
export function chooseScope({ picked, named, context, turn, titleOf, policy = SHIPPED_NAMED_DEVICE_POLICY }: ScopeInput): TurnScope {
  const one = named.manualIds.length && !named.ambiguous ? named.manualIds : undefined;
  const ambiguous = named.ambiguous ? named.manualIds : undefined;
  const kept = context ?? null;
  const searched = (ids: string[], why: string, next: DeviceContext | null, extra: Partial<TurnScope> = {}): TurnScope => {
    const what = new Set(ids.map(titleOf)).size === 1 ? `"${titleOf(ids[0])}"${ids.length > 1 ? ` (${ids.length} copies)` : ''}` : `${ids.length} manuals`;
    if (policy === 'first' && !picked?.length)
      return { manualIds: undefined, preferManualIds: ids, reason: `searched every manual, ${what} first: ${why}`, context: next, ...extra };
    return { manualIds: ids, reason: `searched ${what}: ${why}`, context: next, ...extra };
  };
  if (picked?.length) {
    if (one && !sameManuals(one, picked) && policy !== 'off')
      return searched(one, `named in this question, among the manuals you picked`, kept, { named: true });
    return searched(picked, 'the manuals you picked', kept);
  }
  if (policy === 'off') return { manualIds: undefined, reason: 'searched every manual', context: kept };
  if (one) {
    const next = context && sameManuals(context.manualIds, one) ? context : { manualIds: one, device: named.written.join(' ') || titleOf(one[0]), turn };
    return searched(one, namedIn(next, turn), next, { named: true });
  }
  if (ambiguous) {
    const names = joinWithAnd(ambiguous.map((id) => `"${titleOf(id)}"`));
    if (context && context.manualIds.every((id) => ambiguous.includes(id)))
      return searched(context.manualIds, `${namedIn(context, turn)}; "${named.written.join(' ')}" also matches ${names}`, context, { ambiguous });
    return { manualIds: undefined, reason: `searched every manual: "${named.written.join(' ')}" is ambiguous (it matches ${names})`, context: null, ambiguous };
  }
  if (context) return searched(context.manualIds, namedIn(context, turn), context);
  return { manualIds: undefined, reason: 'searched every manual: no device named', context: null };
}
