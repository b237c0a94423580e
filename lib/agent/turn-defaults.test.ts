/**
 * runTurn with services built from no injected deps: providers come from the lib/providers factories (offline
 * configuration, LanceDB under this test's DATA_DIR) and manual titles from the sessions DB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTools } from '@/tools';
import { agentServices } from '@/lib/services/agent-services';
import { getEmbedder, getMultiVectorEmbedder, getVectorStore } from '@/lib/providers';
import { closeVectorStores } from '@/lib/providers/vectorstore';
import { createManual } from '@/lib/store/manuals';
import { restoreEnv } from '@/test/env';
import { eventsOf } from './testing/turn';
import { FIXTURE_CHUNKS, TITLES, bboxFor } from './testing/library';
import { collectTurn } from './testing/turn';

const saved = { EMBEDDINGS: process.env.EMBEDDINGS, LLM_PROVIDER: process.env.LLM_PROVIDER, VLM_PROVIDER: process.env.VLM_PROVIDER };

beforeAll(async () => {
  // No model downloads and no keys: the offline row of every provider table.
  Object.assign(process.env, { EMBEDDINGS: 'offline', LLM_PROVIDER: 'none', VLM_PROVIDER: 'none' });
  const [embedder, multiVector, store] = await Promise.all([getEmbedder(), getMultiVectorEmbedder(), getVectorStore()]);
  const vectors = await embedder.embedDocuments(FIXTURE_CHUNKS.map((c) => `${c.heading}\n${c.text}`));
  await store.upsertChunks(FIXTURE_CHUNKS.map((c, i) => ({ ...c, ocr: false, bboxes: [bboxFor(c.id)], vector: vectors[i] })));
  const pages = FIXTURE_CHUNKS.map((c) => ({ manualId: c.manualId, page: c.page, text: `${c.heading}\n${c.text}` }));
  const bags = await multiVector.embedPages(pages);
  await store.upsertPages(pages.map((p, i) => ({ ...p, vectors: bags[i] })));
  for (const [id, title] of Object.entries(TITLES)) {
    await createManual({ id, title, fileName: `${id}.pdf`, sha256: `sha-${id}`, sizeBytes: 1 });
  }
});

afterAll(async () => {
  await closeVectorStores();
  restoreEnv(saved);
});

describe('runTurn with the configured providers', () => {
  it('answers offline through the factories, with titles from the manuals table', async () => {
    const events = await collectTurn({ tools: defaultTools, question: 'How often should the inlet strainer be cleaned?', services: agentServices() });
    expect(eventsOf(events, 'turn_start')[0].decider).toBe('rules');
    const response = eventsOf(events, 'response')[0];
    expect(response.text).toContain('Clean the inlet strainer every 500 operating hours');
    expect(response.sources[0]).toMatchObject({ manualId: 'px-200', manualTitle: 'PX-200 Pump Manual', page: 2 });
    // no VLM configured: the reason reaches the decider
    const unavailable = eventsOf(events, 'decision').flatMap((d) => d.unavailable);
    expect(unavailable.every((u) => typeof u.reason === 'string' && u.reason.length > 0)).toBe(true);
    expect(eventsOf(events, 'done')[0].status).toBe('done');
  });
});
