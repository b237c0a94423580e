/**
 * Re-embedding the library for new embedders. Each manual records the fingerprint of the
 * embedders that made its vectors (lib/providers/fingerprint.ts); a ready manual with another one
 * is re-embedded by the ingest worker from the chunk and page text already in the state store: no
 * PDF parsing, OCR or rendering. Each manual is a job of the shared queue (lib/store/jobs.ts),
 * claimed under a renewed lease and taken up again by any worker if its own dies, so a restart
 * resumes where the last one stopped.
 *
 * The manual stays `ready` and searchable on its old vectors while it runs; the new ones are
 * computed first, then written — its chunks in one upsert, its pages in one — and only then is the
 * new fingerprint recorded. A crash between the writes leaves the old fingerprint, so the manual
 * is simply redone. Vectors of another size cannot share the index with the old ones (nor can a
 * query of the new size search them), so then the index is emptied first and the manuals come
 * back one by one.
 */
import { getEmbedder, getMultiVectorEmbedder, getVectorStore, indexFingerprint } from '../providers';
import type { Embedder, MultiVectorEmbedder, VectorStore } from '../providers/types';
import { VectorDimensionError } from '../providers/vectorstore/errors';
import { readCorpusRows } from '../store/corpus';
import { abandonReembed, claimNextReembed, countStaleManuals, finishReembed, forgetIndexFingerprints, reembedProgress, type ReembedStage } from '../store/jobs';
import { getManual } from '../store/manuals';
import { holdLease } from './lease';
import { pageImagePath } from './paths';
import { EMBED_BATCH, embeddingText, indexingTurn, PAGE_BATCH } from './pipeline';
import { processWorkerId } from './worker-id';

export interface ReembedDeps {
  embedder?: Embedder;
  multiVector?: MultiVectorEmbedder;
  store?: VectorStore;
}

/** Progress rows are cheap but not free: at most ~4 writes a second. */
const PROGRESS_EVERY_MS = 250;

async function resolve(deps: ReembedDeps) {
  const [embedder, multiVector, store] = await Promise.all([
    deps.embedder ?? getEmbedder(),
    deps.multiVector ?? getMultiVectorEmbedder(),
    deps.store ?? getVectorStore(),
  ]);
  return { embedder, multiVector, store, fingerprint: indexFingerprint(embedder, multiVector) };
}

/**
 * Run by a worker when it starts: the active fingerprint and how many manuals wait for it. When
 * the index holds vectors of another size than the active embedders make, it is emptied here (the
 * error a search or a write would raise otherwise) and every manual waits for its new vectors.
 */
export async function prepareReembedding(deps: ReembedDeps = {}): Promise<{ fingerprint: string; stale: number }> {
  const { embedder, multiVector, store, fingerprint } = await resolve(deps);
  if ((await countStaleManuals(fingerprint)) > 0 && !(await indexFits(store, embedder.dimensions, multiVector.dimensions))) {
    console.log('[reembed] the index holds vectors of another size than the active embedders make: emptying it');
    await store.drop();
    await forgetIndexFingerprints();
  }
  return { fingerprint, stale: await countStaleManuals(fingerprint) };
}

/** Whether the index takes queries (and so vectors) of these sizes. */
async function indexFits(store: VectorStore, dimensions: number, multiVectorDimensions: number): Promise<boolean> {
  try {
    await store.denseSearch(unitVector(dimensions), { limit: 1 });
    await store.multiVectorSearch([unitVector(multiVectorDimensions)], { limit: 1 });
    return true;
  } catch (err) {
    if (err instanceof VectorDimensionError) return false;
    throw err;
  }
}

function unitVector(dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  v[0] = 1;
  return v;
}

export type ReembedOutcome = 'done' | 'failed' | 'lost';

/**
 * Re-embeds one manual this worker claimed (claimNextReembed). `failed` keeps its old vectors and
 * fingerprint: it is tried again once its lease has run out. `lost`: deleted or taken over meanwhile.
 */
export async function reembedManual(manualId: string, fingerprint: string, deps: ReembedDeps = {}, workerId = processWorkerId()): Promise<ReembedOutcome> {
  const lease = holdLease(manualId, workerId, 'reembed');
  const signal = lease.signal;
  let lastWrite = 0;
  const progress = async (stage: ReembedStage, done: number, total: number) => {
    signal.throwIfAborted();
    if (performance.now() - lastWrite < PROGRESS_EVERY_MS && done < total) return;
    lastWrite = performance.now();
    await reembedProgress(manualId, workerId, stage, done, total);
  };
  try {
    const { embedder, multiVector, store } = await resolve(deps);
    const { chunks, pages } = await readCorpusRows([manualId]);

    const vectors: Float32Array[] = [];
    await progress('embedding', 0, chunks.length);
    for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
      vectors.push(...(await embedder.embedDocuments(chunks.slice(i, i + EMBED_BATCH).map(embeddingText), { signal })));
      await progress('embedding', vectors.length, chunks.length);
    }
    // Page bags are held until the write (~128 kB a page at most with the offline embedder).
    const bags: Float32Array[][] = [];
    for (let i = 0; i < pages.length; i += PAGE_BATCH) {
      const batch = pages.slice(i, i + PAGE_BATCH).map((p) => ({ text: p.text, imagePath: pageImagePath(manualId, p.number) }));
      bags.push(...(await multiVector.embedPages(batch, { signal })));
      await progress('indexing', bags.length, pages.length + 1);
    }

    signal.throwIfAborted();
    await indexingTurn(async () => {
      await store.upsertChunks(chunks.map((c, i) => ({ ...c, vector: vectors[i] })));
      await store.upsertPages(pages.map((p, j) => ({ manualId, page: p.number, text: p.text, vectors: bags[j] })));
    });
    if (await finishReembed(manualId, workerId, fingerprint)) return 'done';
    // Deleted while its vectors were being written: the deleter may have removed them before ours landed.
    if (!(await getManual(manualId))) await store.deleteManual(manualId);
    return 'lost';
  } catch (err) {
    if (signal.aborted) return 'lost';
    console.error('[reembed] failed', manualId, err instanceof Error ? err.message : err);
    await abandonReembed(manualId, workerId).catch(() => undefined);
    return 'failed';
  } finally {
    lease.release();
  }
}

/**
 * Re-embeds every manual that waits, one at a time, in this process (the eval and the CLI, which
 * run no worker). Returns how many were re-embedded.
 */
export async function reembedStaleManuals(deps: ReembedDeps = {}, log: (message: string) => void = () => {}): Promise<number> {
  const workerId = processWorkerId();
  const { fingerprint, stale } = await prepareReembedding(deps);
  if (stale > 0) log(`re-embedding ${stale} manual(s) for ${fingerprint}…`);
  let done = 0;
  for (let id = await claimNextReembed(workerId, fingerprint); id; id = await claimNextReembed(workerId, fingerprint)) {
    if ((await reembedManual(id, fingerprint, deps, workerId)) === 'done') done++;
  }
  return done;
}
