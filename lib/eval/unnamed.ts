/**
 * `--unnamed`: the public questions asked as a technician who names no device would ask them.
 * Every single-turn question whose text names its own device (lib/ranking/named-device.ts, the
 * product's recognizer) is asked a second time with its device's naming words taken out
 * (lib/device/unnamed.ts, from the manual's device profile); the original row is `named`, the
 * rewritten one (id "<id>~unnamed") and every question naming no device `unnamed`.
 */
import { deviceProfiles } from '../device/identity';
import { withoutDeviceNames } from '../device/unnamed';
import type { LibraryIndex } from '../ranking/library-index';
import { namedDevice } from '../ranking/named-device';
import type { QaItem } from './qa';

export type Variant = 'named' | 'unnamed';

export interface UnnamedVariants {
  /** The questions with each rewritten one right after its original. */
  questions: QaItem[];
  /** Question id → whether it names its own device as asked; unset for multi-turn turns and questions naming another device. */
  variantOf: Map<string, Variant>;
  /** Rewritten id → the original's id. */
  unnamedOf: Map<string, string>;
  /** The rewritten questions, for the report's config. */
  rewrites: Array<{ id: string; question: string }>;
  /** Rewritten questions the recognizer still reads as naming their device. */
  stillNamed: string[];
}

const namesOwn = (question: string, index: LibraryIndex, manualId: string) => {
  const named = namedDevice(question, index);
  return { named, own: !named.ambiguous && named.manualIds.includes(manualId) };
};

export function unnamedVariants(questions: readonly QaItem[], index: LibraryIndex, manualIdOf: (q: QaItem) => string | undefined, referenceOf: (q: QaItem) => string | undefined = () => undefined): UnnamedVariants {
  const profiles = deviceProfiles(index);
  const out: UnnamedVariants = { questions: [], variantOf: new Map(), unnamedOf: new Map(), rewrites: [], stillNamed: [] };
  for (const q of questions) {
    out.questions.push(q);
    const manualId = manualIdOf(q);
    if (q.session !== undefined || !manualId) continue;
    const { named, own } = namesOwn(q.question, index, manualId);
    if (!own) {
      if (!named.manualIds.length) out.variantOf.set(q.id, 'unnamed');
      continue;
    }
    out.variantOf.set(q.id, 'named');
    const profile = profiles.get(manualId)!;
    // A profile word goes when the recognizer reads it alone as naming this device (with its siblings: a maker).
    // Read mid-sentence ("the Acme"): a sentence's first word is not read as a name.
    const names = (token: string) => namedDevice(`the ${token}`, index).manualIds.includes(manualId);
    let question = withoutDeviceNames(q.question, profile, { names });
    // What the recognizer still reads as naming the device (a file name's word the profile does not hold) goes too.
    const again = namesOwn(question, index, manualId);
    if (again.own) question = withoutDeviceNames(q.question, profile, { names, also: [...named.written, ...again.named.written] });
    if (namesOwn(question, index, manualId).own) out.stillNamed.push(q.id);
    const id = `${q.id}~unnamed`;
    const reference = referenceOf(q);
    out.questions.push({ ...q, id, question, ...(reference ? { reference_answer: reference } : {}) });
    out.variantOf.set(id, 'unnamed');
    out.unnamedOf.set(id, q.id);
    out.rewrites.push({ id, question });
  }
  return out;
}
