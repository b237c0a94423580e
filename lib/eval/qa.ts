/**
 * The eval question format (../shared/eval/README.md): one JSON object per line,
 *   {"id", "manual", "question", "answer_keywords": [...], "pages": [...], "kind"}
 * Pages are 1-based PDF page indices; unanswerable questions have no pages and no keywords.
 * A multi-turn set adds "session" (a string) and "turn" (1, 2, …): a session's questions are asked
 * in turn order as one chat (lib/eval/run.ts), so a follow-up meets the earlier turns.
 * An answerable question may carry "reference_answer", the answer written from its page, which
 * stated answers are scored against (ROUGE-L); a set we do not own gets its references from a
 * separate file of {"id", "reference_answer"} lines (readReferenceAnswers).
 */
import fs from 'node:fs';
import { z } from 'zod';
import { jsonLines } from '../runtime/jsonl';

const questionSchema = z.object({
  id: z.string().min(1),
  manual: z.string().min(1),
  question: z.string().min(1),
  answer_keywords: z.array(z.string()).default([]),
  pages: z.array(z.number().int().positive()).default([]),
  // Unknown kinds are kept (grouped under their own name) rather than rejected.
  kind: z.string().min(1),
  session: z.string().min(1).optional(),
  turn: z.number().int().positive().optional(),
  reference_answer: z.string().min(1).optional(),
});

const referenceSchema = z.object({ id: z.string().min(1), reference_answer: z.string().min(1) });

export type QaItem = z.output<typeof questionSchema>;

/** Answerable = has expected pages; the README scores retrieval on these only. */
export function isAnswerable(q: Pick<QaItem, 'pages' | 'kind'>): boolean {
  return q.kind !== 'unanswerable' && q.pages.length > 0;
}

/** Parses JSONL text; errors name the line. Blank lines are skipped; ids must be unique. */
export function parseQa(text: string, source = 'qa'): QaItem[] {
  const out: QaItem[] = [];
  const seen = new Set<string>();
  for (const { value, where } of jsonLines(text, source)) {
    const parsed = questionSchema.safeParse(value);
    if (!parsed.success) {
      throw new Error(`${where}: ${parsed.error.issues.map((x) => `${x.path.join('.') || 'line'} ${x.message}`).join('; ')}`);
    }
    if (seen.has(parsed.data.id)) throw new Error(`${where}: duplicate id ${parsed.data.id}`);
    if (parsed.data.turn !== undefined && parsed.data.session === undefined) throw new Error(`${where}: turn without a session`);
    seen.add(parsed.data.id);
    out.push(parsed.data);
  }
  return out;
}

export function readQa(file: string): QaItem[] {
  return parseQa(fs.readFileSync(file, 'utf8'), file);
}

/** Parses {"id", "reference_answer"} lines into id → reference; an id given twice is an error. */
export function parseReferenceAnswers(text: string, source = 'references'): Map<string, string> {
  const out = new Map<string, string>();
  for (const { value, where } of jsonLines(text, source)) {
    const parsed = referenceSchema.safeParse(value);
    if (!parsed.success) {
      throw new Error(`${where}: ${parsed.error.issues.map((x) => `${x.path.join('.') || 'line'} ${x.message}`).join('; ')}`);
    }
    if (out.has(parsed.data.id)) throw new Error(`${where}: duplicate id ${parsed.data.id}`);
    out.set(parsed.data.id, parsed.data.reference_answer);
  }
  return out;
}

/** The reference answers in `file`, or none when there is no such file. */
export function readReferenceAnswers(file: string): Map<string, string> {
  return fs.existsSync(file) ? parseReferenceAnswers(fs.readFileSync(file, 'utf8'), file) : new Map();
}

/** A question's reference answer: its own field first, else the references file's line for its id. */
export function referenceOf(q: Pick<QaItem, 'id' | 'reference_answer'>, references: ReadonlyMap<string, string>): string | undefined {
  return q.reference_answer ?? references.get(q.id);
}

/**
 * The questions in the order they are asked: a session's turns together, at its first question's
 * place, by turn number (a turn number used twice in one session is an error); the rest as listed.
 */
export function inAskingOrder(questions: readonly QaItem[]): QaItem[] {
  const sessions = new Map<string, QaItem[]>();
  const out: Array<QaItem | QaItem[]> = [];
  for (const q of questions) {
    if (q.session === undefined) out.push(q);
    else if (sessions.has(q.session)) sessions.get(q.session)!.push(q);
    else {
      const list = [q];
      sessions.set(q.session, list);
      out.push(list);
    }
  }
  for (const [session, list] of sessions) {
    list.sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0));
    const dup = list.find((q, i) => i > 0 && q.turn !== undefined && q.turn === list[i - 1].turn);
    if (dup) throw new Error(`session ${session}: turn ${dup.turn} is given twice`);
  }
  return out.flat();
}
