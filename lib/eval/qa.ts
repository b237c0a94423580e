/**
 * The eval question format (../shared/eval/README.md): one JSON object per line,
 *   {"id", "manual", "question", "answer_keywords": [...], "pages": [...], "kind"}
 * Pages are 1-based PDF page indices; unanswerable questions have no pages and no keywords.
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
});

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
    seen.add(parsed.data.id);
    out.push(parsed.data);
  }
  return out;
}

export function readQa(file: string): QaItem[] {
  return parseQa(fs.readFileSync(file, 'utf8'), file);
}
