import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { restoreEnvAfterEach } from '@/test/env';
import { scratchDir } from '@/test/scratch';
import { closeEmbeddings } from '../embeddings';
import { writeTinyBertModel } from '../embeddings/testing/tiny-bert';
import { ColQwenMultiVectorEmbedder } from './colqwen';
import { getMultiVectorEmbedder } from './index';
import { maxSim } from './maxsim';
import { LocalMultiVectorEmbedder } from './local';

const KEYS = ['EMBEDDINGS', 'EMBEDDING_MODEL_DIR', 'GOOGLE_GENERATIVE_AI_API_KEY', 'MULTIVECTOR', 'COLQWEN_URL', 'MULTIVECTOR_MAX_VECTORS_PER_PAGE'];
restoreEnvAfterEach(KEYS, closeEmbeddings);
const tmp = scratchDir('mc-mv-factory-');

describe('getMultiVectorEmbedder', () => {
  it('defaults to local token vectors of the offline embedder, 128 dims, ≤256 per page', async () => {
    const mv = await getMultiVectorEmbedder();
    expect(mv).toBeInstanceOf(LocalMultiVectorEmbedder);
    expect(mv).toMatchObject({ provider: 'local', dimensions: 128, maxVectorsPerPage: 256 });
    expect(mv.id).toContain('offline:hashed-ngrams');
    expect(await getMultiVectorEmbedder()).toBe(mv);

    const [page] = await mv.embedPages([{ text: 'Use MP1584EN power chip, maximum output current 2.5A' }]);
    const q = await mv.embedQuery('buck converter MP1584EN current');
    expect(maxSim(q, page)).toBeGreaterThan(1);
  });

  it('takes token vectors from the offline embedder when the dense embedder is an API', async () => {
    process.env.EMBEDDINGS = 'gemini';
    process.env.GOOGLE_GENERATIVE_AI_API_KEY = 'k';
    const mv = await getMultiVectorEmbedder();
    expect(mv.id).toContain('offline:hashed-ngrams');
  });

  it('uses transformers.js token outputs when a model is loaded', async () => {
    const dir = path.join(tmp, 'tiny');
    writeTinyBertModel(dir);
    process.env.EMBEDDING_MODEL_DIR = dir;
    process.env.MULTIVECTOR_MAX_VECTORS_PER_PAGE = '3';
    const mv = await getMultiVectorEmbedder();
    expect(mv).toMatchObject({ provider: 'local', dimensions: 8, maxVectorsPerPage: 3 });
    expect(mv.id).toMatch(/^local:transformers:Xenova\/bge-small-en-v1\.5:fp32:tokens:pool3-ward$/);
    const [bag] = await mv.embedPages([{ text: 'press the reset button then the red led' }]);
    expect(bag).toHaveLength(3);
  });

  it('connects to the ColQwen worker from COLQWEN_URL', async () => {
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url === '/health' ? { model: 'vidore/colqwen2.5-v0.2', dim: 128 } : {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      process.env.COLQWEN_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const mv = await getMultiVectorEmbedder();
      expect(mv).toBeInstanceOf(ColQwenMultiVectorEmbedder);
      expect(mv).toMatchObject({ provider: 'colqwen', dimensions: 128, id: 'colqwen:vidore/colqwen2.5-v0.2:128:pool256' });
    } finally {
      server.close();
    }
  });
});
