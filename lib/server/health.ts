import 'server-only';
import { isDataDirWritable } from '../runtime/data-dir';
import { describeOcrEngine } from '../ingest/ocr-engine';
import { activeIndexFingerprint, getEmbedder, getReranker } from '../providers';
import { runtimeEnv } from '../config';
import { describeProviders, getProviderConfig } from '../providers/roles';
import { checkDb } from '../store/db';
import { indexFingerprints, queueReport } from '../store/jobs';
import { lastVectorAudit } from '../store/vector-audit';
import { filesDir } from '../ingest/paths';
import { ingestWorkerMemory, ingestWorkerRestarts } from '../ingest/worker-client';
import { pdfPoolStats } from '../pdf-worker/pool';
import { ownMemory } from '../runtime/process-memory';
import fs from 'node:fs';
import path from 'node:path';
import { APP_VERSION } from '../runtime/version';

/**
 * The providers as they actually run: the configuration says what was asked for, but the
 * embeddings role resolves at run time (a transformers.js model that cannot be loaded falls back
 * to the offline embedder) and so does the reranker (off when no model can be loaded), so those
 * roles are reported from the live providers.
 */
export async function activeProviders() {
  const providers = describeProviders(getProviderConfig());
  try {
    const embedder = await getEmbedder();
    providers.embeddings = {
      provider: embedder.provider,
      mode: providers.embeddings.mode,
      detail: embedder.fallbackReason ? `${embedder.id} — fallback: ${embedder.fallbackReason}` : embedder.id,
    };
  } catch (err) {
    providers.embeddings = { ...providers.embeddings, detail: `unavailable: ${err instanceof Error ? err.message : String(err)}` };
  }
  // The reranker runs only when its model can be loaded; when it cannot, say why it is off.
  const { reranker, reason } = await getReranker();
  providers.reranker = reranker
    ? { ...providers.reranker, detail: `cross-encoder ${reranker.id}` }
    : { provider: 'none', mode: providers.reranker.mode, detail: `off: ${reason}` };
  let ocr: { provider: string; mode: 'offline'; detail: string };
  try {
    const d = describeOcrEngine();
    ocr = { provider: d.provider, mode: d.mode, detail: d.detail };
  } catch (err) {
    ocr = { provider: 'unavailable', mode: 'offline', detail: err instanceof Error ? err.message : String(err) };
  }
  return { ...providers, ocr };
}

/**
 * The health report behind GET /api/health: version, this server's pid, how often each process was
 * restarted, each storage backend (DATA_DIR, the state database — read and written —, FILES_DIR),
 * the ingest queue (jobs waiting, running, per worker), the active provider of each role and
 * memory per process. `ok` is false (and the route answers 503) when a storage backend fails.
 */
export async function healthReport() {
  const dataDir = isDataDirWritable();
  const db = await checkDb();
  const files = isFilesDirWritable();
  const queue = db.ok
    ? await queueReport().catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }))
    : { error: 'database unavailable' };
  const index = db.ok ? await indexReport() : { error: 'database unavailable' };
  return {
    ok: dataDir.ok && db.ok && files.ok,
    // Serving, but searches find less: the vector index lacks vectors and is being rebuilt.
    degraded: 'vectors' in index && index.vectors?.ok === false,
    version: APP_VERSION,
    node: process.version,
    pid: process.pid,
    restarts: restartsReport(),
    dataDir,
    db,
    files,
    queue,
    index,
    providers: await activeProviders(),
    memory: memoryReport(),
  };
}

/**
 * Restarts so far: of this web server by `npm start`'s supervisor (scripts/start.ts passes its count
 * in MC_SERVER_RESTARTS; 0 under `next start` alone), of the ingest worker by this server, and of
 * PDF workers that died or were killed at a limit while working (the next job starts a fresh one).
 */
function restartsReport() {
  const server = Number(runtimeEnv('MC_SERVER_RESTARTS') ?? 0);
  return { server: Number.isInteger(server) && server >= 0 ? server : 0, worker: ingestWorkerRestarts(), pdfWorkers: pdfPoolStats().crashes };
}

/**
 * The fingerprint of the active embedders and the ones the ready manuals' vectors were made with;
 * `stale` manuals wait for the worker to re-embed them (lib/ingest/reembed.ts). `vectors`: the last
 * background audit of the vector index against the stored chunks (lib/store/vector-audit.ts).
 */
async function indexReport() {
  try {
    const [fingerprint, manuals] = await Promise.all([activeIndexFingerprint(), indexFingerprints()]);
    const stale = manuals.filter((m) => m.fingerprint !== fingerprint).reduce((n, m) => n + m.manuals, 0);
    return { fingerprint, stale, manuals, vectors: lastVectorAudit() };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Memory per process: this web server's at the top level (the load test watches it across rounds
 * to see it level off) and the ingest worker it started under `worker` (null when it started none):
 * the last figure measured in the background and its age (`ageMs`), never waited for.
 */
function memoryReport() {
  return { ...ownMemory(), worker: ingestWorkerMemory() };
}

/** FILES_DIR (page images, thumbnails, uploads; a shared volume on several machines) takes writes. */
function isFilesDirWritable(): { ok: boolean; path: string; error?: string } {
  const dir = filesDir();
  try {
    fs.mkdirSync(dir, { recursive: true });
    const probe = path.join(dir, `.write-probe-${process.pid}-${Date.now()}`);
    fs.writeFileSync(probe, 'ok');
    fs.rmSync(probe);
    return { ok: true, path: dir };
  } catch (err) {
    return { ok: false, path: dir, error: (err as NodeJS.ErrnoException).code ?? String(err) };
  }
}
