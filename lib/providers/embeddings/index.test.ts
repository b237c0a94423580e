import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { restoreEnvAfterEach } from '@/test/env';
import { scratchDir } from '@/test/scratch';
import { getConfig } from '../../config';
import { CachingEmbedder } from './cache';
import { GeminiEmbedder } from './gemini';
import { HashedNgramEmbedder } from './hashed-ngrams';
import { closeEmbeddings, getEmbedder, recommendedHybridAlpha } from './index';
import { writeTinyBertModel } from './testing/tiny-bert';
import { hasTokenVectors } from './token-vectors';

const KEYS = ['EMBEDDINGS', 'EMBEDDING_MODEL', 'EMBEDDING_MODEL_DIR', 'GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_EMBEDDING_MODEL', 'EMBEDDING_BATCH_SIZE'];
restoreEnvAfterEach(KEYS, closeEmbeddings);
const tmp = scratchDir('mc-emb-factory-');

describe('getEmbedder', () => {
  it('falls back to the offline embedder, with a reason, when the default model is not available', async () => {
    const e = await getEmbedder();
    expect(e.provider).toBe('offline');
    expect(e).toBeInstanceOf(HashedNgramEmbedder);
    expect(e.fallbackReason).toMatch(/Xenova\/bge-small-en-v1\.5 not found offline/);
    expect(await getEmbedder()).toBe(e);
    expect(hasTokenVectors(e)).toBe(true);
  });

  it('uses the offline embedder without a fallback reason when asked for it', async () => {
    process.env.EMBEDDINGS = 'offline';
    const e = await getEmbedder();
    expect(e.provider).toBe('offline');
    expect(e.fallbackReason).toBeUndefined();
  });

  it('loads transformers.js from EMBEDDING_MODEL_DIR, batched and cached under DATA_DIR', async () => {
    const dir = path.join(tmp, 'tiny');
    writeTinyBertModel(dir, { pooling: 'mean' });
    process.env.EMBEDDING_MODEL_DIR = dir;
    process.env.EMBEDDING_BATCH_SIZE = '2';
    const e = await getEmbedder();
    expect(e.provider).toBe('transformers');
    expect(e.fallbackReason).toBeUndefined();
    expect(e).toBeInstanceOf(CachingEmbedder);
    expect(hasTokenVectors(e)).toBe(true);

    const cached = e as CachingEmbedder;
    await e.embedDocuments(['pump', 'motor', 'fuse']);
    expect(cached.stats.innerCalls).toBe(2);
    await e.embedDocuments(['pump', 'motor', 'fuse']);
    expect(cached.stats.innerCalls).toBe(2);
    expect(fs.existsSync(path.join(getConfig().dataDir, 'cache', 'embeddings.db'))).toBe(true);
  });

  it('builds the Gemini embedder from the key without calling the API', async () => {
    process.env.EMBEDDINGS = 'gemini';
    process.env.GOOGLE_GENERATIVE_AI_API_KEY = 'test-key';
    const e = await getEmbedder();
    expect(e).toBeInstanceOf(CachingEmbedder);
    expect((e as CachingEmbedder).inner).toBeInstanceOf(GeminiEmbedder);
    expect(e).toMatchObject({ provider: 'gemini', dimensions: 768, id: 'gemini:gemini-embedding-001:768' });
  });

  it('rebuilds when the configuration changes', async () => {
    process.env.EMBEDDINGS = 'offline';
    const a = await getEmbedder();
    process.env.EMBEDDINGS = 'gemini';
    process.env.GOOGLE_GENERATIVE_AI_API_KEY = 'k';
    const b = await getEmbedder();
    expect(a).not.toBe(b);
    expect(b.provider).toBe('gemini');
  });

  it('recommends the measured hybrid weight for the offline embedder', () => {
    expect(recommendedHybridAlpha({ provider: 'offline' })).toBe(0.4);
    expect(recommendedHybridAlpha({ provider: 'gemini' })).toBe(0.5);
  });
});
