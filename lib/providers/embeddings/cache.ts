/**
 * Persistent embedding cache (DATA_DIR/cache/embeddings.db, SQLite via @libsql/client) and the
 * batching wrapper every configured embedder goes through. Rows are keyed by embedder id, kind
 * (query/document: several models embed them differently) and sha256(text), so re-ingesting a
 * manual, or asking the same question twice, costs no model call.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createClient, type Client, type InStatement } from '@libsql/client';
import type { CallOptions, Embedder } from '../types';
import { hasTokenVectors, type TokenOptions, type TokenVectors } from './token-vectors';
import { chunk, sha256Hex, throwIfAborted } from './util';

type VectorKind = 'query' | 'document' | 'page';

export interface CacheKey {
  model: string;
  kind: VectorKind;
  text: string;
}

// SQLite caps bound parameters per statement; stay well below the limit.
const LOOKUP_BATCH = 300;

/** A bag of Float32 vectors per (model, kind, text). Dense embeddings are bags of one. */
export class VectorCache {
  private constructor(
    private readonly client: Client,
    readonly file: string,
  ) {}

  static async open(file: string): Promise<VectorCache> {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const client = createClient({ url: `file:${file}` });
    try {
      // WAL + busy timeout: the web server and an ingest CLI may share the file.
      await client.execute('PRAGMA journal_mode = WAL');
      await client.execute('PRAGMA busy_timeout = 5000');
      await client.execute(
        `CREATE TABLE IF NOT EXISTS vectors (
           model TEXT NOT NULL,
           kind TEXT NOT NULL,
           text_sha256 TEXT NOT NULL,
           dim INTEGER NOT NULL,
           count INTEGER NOT NULL,
           data BLOB NOT NULL,
           created_at INTEGER NOT NULL,
           PRIMARY KEY (model, kind, text_sha256)
         ) WITHOUT ROWID`,
      );
    } catch (err) {
      client.close();
      throw err;
    }
    return new VectorCache(client, file);
  }

  /** Cached bags by index into `keys`; misses are absent. */
  async getMany(keys: CacheKey[]): Promise<Map<number, Float32Array[]>> {
    const out = new Map<number, Float32Array[]>();
    // Group by (model, kind) so each lookup is one indexed IN query.
    const groups = new Map<string, Array<{ i: number; sha: string }>>();
    keys.forEach((k, i) => {
      const g = `${k.model}\u0000${k.kind}`;
      const list = groups.get(g) ?? [];
      list.push({ i, sha: sha256Hex(k.text) });
      groups.set(g, list);
    });
    for (const [g, list] of groups) {
      const [model, kind] = g.split('\u0000');
      for (const part of chunk(list, LOOKUP_BATCH)) {
        const shas = [...new Set(part.map((p) => p.sha))];
        const rs = await this.client.execute({
          sql: `SELECT text_sha256, dim, count, data FROM vectors WHERE model = ? AND kind = ? AND text_sha256 IN (${shas.map(() => '?').join(',')})`,
          args: [model, kind, ...shas],
        });
        const found = new Map<string, Float32Array[]>();
        for (const row of rs.rows) {
          found.set(String(row.text_sha256), decodeBag(row.data as ArrayBuffer, Number(row.dim), Number(row.count)));
        }
        for (const p of part) {
          const bag = found.get(p.sha);
          if (bag) out.set(p.i, bag);
        }
      }
    }
    return out;
  }

  async putMany(entries: Array<{ key: CacheKey; vectors: Float32Array[] }>): Promise<void> {
    if (entries.length === 0) return;
    const now = Date.now();
    const statements: InStatement[] = entries.map(({ key, vectors }) => ({
      sql: 'INSERT OR REPLACE INTO vectors (model, kind, text_sha256, dim, count, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      args: [key.model, key.kind, sha256Hex(key.text), vectors[0]?.length ?? 0, vectors.length, encodeBag(vectors), now],
    }));
    for (const part of chunk(statements, 200)) await this.client.batch(part, 'write');
  }

  async count(model?: string): Promise<number> {
    const rs = model
      ? await this.client.execute({ sql: 'SELECT COUNT(*) AS n FROM vectors WHERE model = ?', args: [model] })
      : await this.client.execute('SELECT COUNT(*) AS n FROM vectors');
    return Number(rs.rows[0].n);
  }

  close(): void {
    this.client.close();
  }
}

function encodeBag(vectors: Float32Array[]): Uint8Array {
  const dim = vectors[0]?.length ?? 0;
  const all = new Float32Array(dim * vectors.length);
  vectors.forEach((v, i) => all.set(v, i * dim));
  return new Uint8Array(all.buffer);
}

function decodeBag(data: ArrayBuffer, dim: number, count: number): Float32Array[] {
  // Copy: the row buffer may be shared or unaligned for a Float32Array view.
  const all = new Float32Array(data.slice(0));
  return Array.from({ length: count }, (_, i) => all.slice(i * dim, (i + 1) * dim));
}

export interface CachingOptions {
  /** Texts per call to the inner embedder. */
  batchSize: number;
  /** Null disables persistence (batching still applies). */
  cache: VectorCache | null;
}

/**
 * Wraps an embedder with batching and the persistent cache. It keeps the inner embedder's id,
 * provider and fallback reason, and passes token vectors through for the multi-vector role.
 */
export class CachingEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly provider: Embedder['provider'];
  readonly fallbackReason?: string;
  get fingerprint(): string {
    return this.inner.fingerprint;
  }
  /** Calls that reached the inner embedder (for tests and logs). */
  readonly stats = { innerCalls: 0, cacheHits: 0, cacheMisses: 0 };

  constructor(
    readonly inner: Embedder,
    private readonly options: CachingOptions,
  ) {
    this.id = inner.id;
    this.dimensions = inner.dimensions;
    this.provider = inner.provider;
    this.fallbackReason = inner.fallbackReason;
    if (hasTokenVectors(inner)) {
      // Expose token vectors only when the inner embedder has them (hasTokenVectors checks this).
      Object.assign(this, {
        tokenVectorsId: inner.tokenVectorsId,
        tokenDimensions: inner.tokenDimensions,
        embedTokens: (texts: string[], opts: TokenOptions): Promise<TokenVectors[]> => inner.embedTokens(texts, opts),
      });
    }
  }

  async embedDocuments(texts: string[], opts?: CallOptions): Promise<Float32Array[]> {
    return this.embed(texts, 'document', opts);
  }

  async embedQuery(text: string, opts?: CallOptions): Promise<Float32Array> {
    return (await this.embed([text], 'query', opts))[0];
  }

  private async embed(texts: string[], kind: 'query' | 'document', opts?: CallOptions): Promise<Float32Array[]> {
    throwIfAborted(opts);
    const out: Array<Float32Array | undefined> = new Array(texts.length);
    const cache = this.options.cache;
    if (cache && texts.length) {
      const hits = await safeCache(() => cache.getMany(texts.map((text) => ({ model: this.id, kind, text }))), new Map());
      for (const [i, bag] of hits) {
        if (bag[0]?.length === this.dimensions) out[i] = bag[0];
      }
    }
    // Embed each distinct missing text once, in batches.
    const missing = new Map<string, number[]>();
    texts.forEach((t, i) => {
      if (out[i]) return;
      const list = missing.get(t) ?? [];
      list.push(i);
      missing.set(t, list);
    });
    this.stats.cacheHits += texts.length - [...missing.values()].reduce((a, l) => a + l.length, 0);
    this.stats.cacheMisses += missing.size;

    for (const batch of chunk([...missing.keys()], this.options.batchSize)) {
      throwIfAborted(opts);
      this.stats.innerCalls++;
      const vectors = kind === 'query' ? await Promise.all(batch.map((t) => this.inner.embedQuery(t, opts))) : await this.inner.embedDocuments(batch, opts);
      if (vectors.length !== batch.length) {
        throw new Error(`embedder ${this.id} returned ${vectors.length} vectors for ${batch.length} texts`);
      }
      batch.forEach((t, j) => {
        for (const i of missing.get(t)!) out[i] = vectors[j];
      });
      if (cache) {
        await safeCache(() => cache.putMany(batch.map((text, j) => ({ key: { model: this.id, kind, text }, vectors: [vectors[j]] }))), undefined);
      }
    }
    return out as Float32Array[];
  }
}

let warnedCacheError = false;

/** A broken or locked cache file must not break embedding: log once, then behave as a miss. */
export async function safeCache<T>(op: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (!warnedCacheError) {
      warnedCacheError = true;
      console.warn(`[embeddings] cache unavailable, continuing without it: ${err instanceof Error ? err.message : String(err)}`);
    }
    return fallback;
  }
}
