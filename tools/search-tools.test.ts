/** The three search tools against a real LanceDB store built with the real offline embedders. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolOnce } from '@/lib/agent/testing/turn';
import { bboxFor, fixtureLibraryIndex, openFixtureStore, type FixtureStore } from '@/lib/agent/testing/library';
import { colqwenSearch } from './colqwen-search';
import { fastVectorSearch } from './fast-vector-search';
import { hybridSearch } from './hybrid-search';
import type { ChunkObject, PageObject } from '@/lib/agent/contract';

let fx: FixtureStore;
beforeAll(async () => {
  fx = await openFixtureStore();
});
afterAll(async () => {
  await fx?.close();
});

describe('fast_vector_search', () => {
  it('finds the spec passage with its heading, title, bboxes and timings', async () => {
    const { result, audit } = await runToolOnce(fastVectorSearch, { query: 'full-load current of the motor' }, fx.deps);
    expect(result!.name).toBe('passages');
    const top = result!.objects[0] as ChunkObject;
    expect(top).toMatchObject({ kind: 'chunk', chunkId: 'px-200:1:0', manualTitle: 'PX-200 Pump Manual', page: 1, heading: 'Specifications > Electrical' });
    expect(top.bboxes).toEqual([bboxFor('px-200:1:0')]);
    expect(result!.objects.length).toBeLessThanOrEqual(5); // schema default limit
    expect(result!.metadata).toMatchObject({ count: result!.objects.length, embed_ms: expect.any(Number), search_ms: expect.any(Number) });
    expect(result!.llmMessage).toMatch(/passages from \d manuals?/);
    expect(audit[0].inputs).toEqual({ query: 'full-load current of the motor', limit: 5 });
  });

  it('stays inside the chat scope and refuses a manual outside it', async () => {
    const scoped = await runToolOnce(fastVectorSearch, { query: 'supply voltage', limit: 10 }, fx.deps, { manualIds: ['cb-9'] });
    expect(scoped.result!.objects.every((o) => o.manualId === 'cb-9')).toBe(true);
    const outside = await runToolOnce(fastVectorSearch, { query: 'fuse', manual: ['px-200'] }, fx.deps, { manualIds: ['cb-9'] });
    expect(outside.error).toMatchObject({ recoverable: true, message: expect.stringContaining('outside this chat') });
  });
});

describe('colqwen_search', () => {
  it('ranks whole pages and returns preview URLs and the page passages', async () => {
    const { result } = await runToolOnce(colqwenSearch, { query: 'wiring diagram of the terminal block' }, fx.deps);
    expect(result!.name).toBe('pages');
    expect(result!.objects.length).toBeLessThanOrEqual(3); // top_k default
    const top = result!.objects[0] as PageObject;
    expect(top).toMatchObject({
      kind: 'page',
      manualId: 'px-200',
      page: 4,
      previewUrl: '/manuals/px-200/pages/4/image',
      thumbnailUrl: '/manuals/px-200/pages/4/thumb',
      chunkId: 'px-200:4:0',
      textSource: 'passages',
    });
    expect(top.text).toContain('brown wire');
    expect(result!.metadata.pages).toEqual(result!.objects.map((o) => ({ manualId: o.manualId, page: o.page, score: o.score })));
  });
});

describe('hybrid_search', () => {
  it('finds an exact error code, merges the page leg and de-duplicates', async () => {
    const { result, tree } = await runToolOnce(hybridSearch, { query: 'error code E07', text_limit: 3, visual_limit: 3 }, fx.deps);
    const objects = result!.objects;
    expect(objects[0]).toMatchObject({ kind: 'chunk', chunkId: 'px-200:3:0' });
    const keys = objects.map((o) => (o.kind === 'chunk' ? o.chunkId : `${o.manualId}#${o.page}`));
    expect(new Set(keys).size).toBe(keys.length);
    // a page found by both legs is folded into its chunk (visual score + preview), not listed twice
    const chunkPages = new Set(objects.filter((o) => o.kind === 'chunk').map((o) => `${o.manualId}#${o.page}`));
    for (const o of objects) if (o.kind === 'page') expect(chunkPages.has(`${o.manualId}#${o.page}`)).toBe(false);
    expect(result!.metadata.merged_pages).toBe(objects.filter((o) => o.kind === 'chunk' && o.visualScore !== undefined).length);
    expect(tree.environment.visualPages().length).toBe((result!.metadata.pages as unknown[]).length);
  });

  it('keeps working when one leg fails, and says which', async () => {
    const broken = {
      ...fx.multiVectorEmbedder,
      embedQuery: async () => {
        throw new Error('worker down');
      },
    };
    const { result } = await runToolOnce(hybridSearch, { query: 'shaft seal replacement interval' }, { ...fx.deps, multiVectorEmbedder: broken });
    expect(result!.objects[0]).toMatchObject({ chunkId: 'px-200:2:0' });
    expect(result!.metadata.partial).toBe('page leg failed: worker down');
  });

  it('ranks with the library index its services hand it', async () => {
    const index = fixtureLibraryIndex();
    let calls = 0;
    const query = 'PX-200 pump shaft seal replacement interval';
    const { result } = await runToolOnce(hybridSearch, { query }, { ...fx.deps, libraryIndex: async () => (calls++, index) });
    expect(calls).toBe(1);
    expect(result!.metadata.rank_error).toBeUndefined();
    expect(result!.objects[0]).toMatchObject({ chunkId: 'px-200:2:0' });
    // the manual's identity words come from that index: its title names the PX-200 pump
    expect(result!.topicTerms).toEqual({ 'px-200': expect.arrayContaining(['pump']) });

    const failing = await runToolOnce(hybridSearch, { query }, { ...fx.deps, libraryIndex: async () => Promise.reject(new Error('no index in this test')) });
    expect(failing.result!.metadata.rank_error).toBe('no index in this test');
    expect(failing.result!.topicTerms).toEqual({});
  });
});
