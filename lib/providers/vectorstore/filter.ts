/**
 * SearchFilter in one normalised shape for every backend, plus its LanceDB SQL form.
 * Ids go into SQL as string literals, so quoting is done here, once, and tested with hostile ids.
 */
import type { SearchFilter } from '../types';

export interface NormalisedFilter {
  /** Undefined = every manual. An empty `manualIds` array also means every manual (no restriction). */
  manualIds?: string[];
  /** Inclusive page bounds, whole numbers. */
  from?: number;
  to?: number;
}

export function normaliseFilter(filter?: SearchFilter): NormalisedFilter {
  const out: NormalisedFilter = {};
  if (filter?.manualIds && filter.manualIds.length > 0) out.manualIds = [...new Set(filter.manualIds.map(String))];
  const from = filter?.pages?.from;
  const to = filter?.pages?.to;
  // Non-finite bounds are ignored rather than turned into SQL; fractional bounds round inwards.
  if (typeof from === 'number' && Number.isFinite(from)) out.from = Math.ceil(from);
  if (typeof to === 'number' && Number.isFinite(to)) out.to = Math.floor(to);
  return out;
}

/** A SQL string literal: single quotes doubled. DataFusion does not treat backslashes as escapes. */
export function sqlString(value: string): string {
  // NUL cannot be represented in the SQL text the engine parses; it never occurs in real ids.
  return `'${value.replace(/\0/g, '').replace(/'/g, "''")}'`;
}

function sqlInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`not a whole number: ${n}`);
  return String(n);
}

/** The LanceDB `where` clause for a filter, or undefined when nothing is filtered. */
export function lanceWhere(filter?: SearchFilter): string | undefined {
  const f = normaliseFilter(filter);
  const parts: string[] = [];
  if (f.manualIds) {
    parts.push(f.manualIds.length === 1 ? `manual_id = ${sqlString(f.manualIds[0])}` : `manual_id IN (${f.manualIds.map(sqlString).join(', ')})`);
  }
  if (f.from !== undefined) parts.push(`page >= ${sqlInt(f.from)}`);
  if (f.to !== undefined) parts.push(`page <= ${sqlInt(f.to)}`);
  return parts.length ? parts.join(' AND ') : undefined;
}
