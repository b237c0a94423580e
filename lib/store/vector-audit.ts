/**
 * The vector index checked against the state database, which keeps every ready manual's chunks
 * and page text. A deleted or truncated LanceDB folder otherwise goes unnoticed: searches quietly
 * find less. The audit compares, per ready manual, the chunks stored with the vectors indexed;
 * the repair (run by the ingest worker, the index's writer) marks the manuals that lack vectors as
 * unembedded, so the worker re-embeds them from the stored chunks (lib/ingest/reembed.ts), and
 * drops an index it cannot read at all first. /api/health shows the last audit (lastVectorAudit).
 */
import { and, count, eq, isNull } from 'drizzle-orm';
import { getVectorStore } from '../providers';
import type { VectorStore } from '../providers/types';
import { getDb } from './db';
import { forgetIndexFingerprints } from './jobs';
import { chunks, manuals } from './tables';

export type VectorAudit =
  | { ok: true; manuals: number }
  | { ok: false; error: string; missing: string[]; unreadable: boolean }
  /** The backend cannot be audited (Weaviate keeps its own replicas) or no audit has finished yet. */
  | { ok: null; detail: string };

/** Ready manuals (not being re-embedded right now) and how many chunks the database holds for each. */
async function storedChunkCounts(): Promise<Map<string, number>> {
  const db = await getDb();
  const rows = await db
    .select({ id: manuals.id, chunks: count(chunks.id) })
    .from(manuals)
    .leftJoin(chunks, eq(chunks.manualId, manuals.id))
    .where(and(eq(manuals.status, 'ready'), isNull(manuals.reembedStage)))
    .groupBy(manuals.id);
  return new Map(rows.map((r) => [r.id, Number(r.chunks)]));
}

/** Compares the index with the stored chunks: a manual lacks vectors when it has fewer chunk rows, or no page rows. */
export async function auditVectorIndex(store?: VectorStore): Promise<VectorAudit> {
  const index = store ?? (await getVectorStore());
  if (!index.vectorsPerManual) return { ok: null, detail: `not audited: ${index.provider} keeps its own replicas` };
  let indexed: Map<string, { chunks: number; pages: number }>;
  try {
    indexed = await index.vectorsPerManual();
  } catch (err) {
    const stored = await storedChunkCounts();
    return {
      ok: false,
      error: `the vector index cannot be read: ${err instanceof Error ? err.message : String(err)}`,
      missing: [...stored.keys()],
      unreadable: true,
    };
  }
  // Read after the index: a manual turns ready only once its vectors are written.
  const stored = await storedChunkCounts();
  const missing = [...stored].filter(([id, n]) => {
    const have = indexed.get(id);
    return n > 0 && (!have || have.chunks < n || have.pages === 0);
  });
  if (missing.length === 0) return { ok: true, manuals: stored.size };
  return {
    ok: false,
    error: `the vector index lacks the vectors of ${missing.length} of ${stored.size} ready manual(s)`,
    missing: missing.map(([id]) => id),
    unreadable: false,
  };
}

/**
 * Audits and repairs: an index that cannot be read is dropped, and every manual that lacks vectors
 * is marked for re-embedding. Run by the index's writer (the ingest worker). Returns the audit.
 */
export async function repairVectorIndex(store?: VectorStore): Promise<VectorAudit> {
  const index = store ?? (await getVectorStore());
  const audit = await auditVectorIndex(index);
  if (audit.ok !== false) return audit;
  console.error(`[index] ${audit.error}: re-embedding ${audit.missing.length} manual(s) from their stored chunks`);
  if (audit.unreadable) {
    await index.drop();
    await forgetIndexFingerprints();
  } else {
    await forgetIndexFingerprints(audit.missing);
  }
  return audit;
}

/** How often the web server audits in the background; health never waits for it. */
const AUDIT_EVERY_MS = 10_000;
/** When an audit finds a manual missing for the first time, the next one comes this soon. */
const CONFIRM_AFTER_MS = 1500;
const state = globalThis as unknown as { __mcVectorAudit?: { at: number; audit: VectorAudit; missing: Set<string>; running?: boolean } };

/**
 * The last audit this process made and its age, refreshed in the background when older than
 * AUDIT_EVERY_MS. A manual is reported missing only when two audits in a row found it so: another
 * process's writes reach this one's reads up to a second late (LanceDB's read consistency).
 */
export function lastVectorAudit(): VectorAudit & { ageMs?: number } {
  const now = Date.now();
  const last = (state.__mcVectorAudit ??= { at: 0, audit: { ok: null, detail: 'not audited yet' }, missing: new Set() });
  if (now - last.at > AUDIT_EVERY_MS && !last.running) {
    last.running = true;
    void auditVectorIndex()
      .then((audit) => {
        const seenBefore = last.missing;
        last.missing = new Set(audit.ok === false ? audit.missing : []);
        const confirmed = audit.ok === false ? audit.missing.filter((id) => seenBefore.has(id)) : [];
        if (audit.ok === false && !audit.unreadable && confirmed.length === 0) return 'confirm';
        last.audit =
          audit.ok === false && !audit.unreadable
            ? { ...audit, error: `the vector index lacks the vectors of ${confirmed.length} ready manual(s)`, missing: confirmed }
            : audit;
        return 'done';
      })
      .catch((err: unknown) => {
        last.audit = { ok: null, detail: `not audited: ${err instanceof Error ? err.message : String(err)}` };
        return 'done';
      })
      .then((outcome) => {
        last.at = outcome === 'confirm' ? Date.now() - AUDIT_EVERY_MS + CONFIRM_AFTER_MS : Date.now();
        last.running = false;
      });
  }
  return last.at ? { ...last.audit, ageMs: now - last.at } : last.audit;
}
