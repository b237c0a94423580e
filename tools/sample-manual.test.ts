import path from 'node:path';
import os from 'node:os';
/**
 * The six tools, and the offline loop, against the generated sample manual ingested
 * through the real pipeline (acceptUpload → ingestManual: parse, OCR, render, embed, index) into
 * a real LanceDB index in this file's scratch DATA_DIR (test/setup.ts). Nothing is mocked but the
 * vision model, a MockLanguageModelV3 behind the real client wrapper (createLlmClient).
 */
import { MockLanguageModelV3 } from 'ai/test';
import { defaultTools } from '@/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, mockLlm, resultOf, textResult, chunk, startingTree } from '@/lib/agent/testing/turn';
import { agentServices, type AgentDeps } from '@/lib/services/agent-services';
import { collectTurn } from '@/lib/agent/testing/turn';
import type { TreeData } from '@/lib/agent/contract';
import { chain, defaultInterceptors } from '@/lib/agent/interceptors';
import type { AuditRecord } from '@/lib/agent/events';
import { ingestManual } from '@/lib/ingest/pipeline';
import { acceptUpload } from '@/lib/manuals/service';
import { overallPercent } from '@/lib/manuals/view';
import { createManual, deleteManualRow, indexTextPages, updateManual } from '@/lib/store/manuals';
import { createLlmClient } from '@/lib/providers/llm/client';
import type { LlmClient } from '@/lib/providers/types';
import { generateSampleManual, SAMPLE_MANUAL_FILE, SAMPLE_QUESTIONS, RASTER_PAGE } from '@/lib/sample';
import { closeIngestStack } from '@/lib/ingest/testing/teardown';
import { colqwenSearch } from './colqwen-search';
import { fastVectorSearch } from './fast-vector-search';
import { unknownDevices } from '@/lib/answer/applicability';
import { hybridSearch } from './hybrid-search';
import { loadTransformersReranker } from '@/lib/providers/reranker/transformers';
import { writeTinyCrossEncoder } from '@/lib/providers/reranker/testing/tiny-cross-encoder';
import { SUMMARIZE_ABOVE_TOKENS, summarize } from './summarize';
import { textResponse } from './text-response';
import { type AnyTool, type ChunkObject, type PageObject, type AgentServices, type ToolOutput } from '@/lib/agent/contract';
import { visualInterpretation } from './visual-interpretation';

async function* bytesOf(data: Uint8Array) {
  yield data;
}

let manualId: string;

beforeAll(async () => {
  const { pdf } = await generateSampleManual();
  const { manual } = await acceptUpload(bytesOf(pdf), SAMPLE_MANUAL_FILE, 'owner');
  manualId = manual.id;
  expect((await ingestManual(manualId))?.status).toBe('ready');
}, 180_000);

afterAll(closeIngestStack);

/** Offline deps: the real factories (offline embedder, LanceDB in DATA_DIR), no LLM. */
const OFFLINE: AgentDeps = { llm: null, vlm: null };

/** A VLM: the real client wrapper around a scripted MockLanguageModelV3. */
function mockVlm(reading: string): { vlm: LlmClient; model: MockLanguageModelV3 } {
  const model = new MockLanguageModelV3({ modelId: 'mock-vlm', doGenerate: async () => textResult(reading) });
  return { vlm: createLlmClient(model, { vision: true, role: 'vlm', maxAttempts: 1 }), model };
}

function treeWith(over: Partial<Omit<TreeData, 'providers'>> & { deps?: AgentDeps; providers?: Partial<AgentServices> } = {}): TreeData {
  const { deps, providers, ...rest } = over;
  const services = { ...agentServices(deps ?? OFFLINE), ...providers };
  return startingTree('What supply voltage does the HX-200 controller need?', services, { manualIds: [manualId], ...rest });
}

/** Runs a tool the way the loop does (input validation with the schema's defaults, deadline). */
async function run(tool: AnyTool, input: unknown, tree = treeWith()) {
  const audit: AuditRecord[] = [];
  const outputs: ToolOutput[] = [];
  const runner = chain(defaultInterceptors({ audit, timeoutMs: 60_000 }));
  const ctx = { ...tree.services, signal: new AbortController().signal, recordUsage: () => {} };
  for await (const out of runner({ tool, input, tree, ctx })) {
    outputs.push(out);
    if (out.type === 'result') tree.environment.add(tool.name, out, tree.iteration);
  }
  const result = outputs.find((o): o is Extract<ToolOutput, { type: 'result' }> => o.type === 'result');
  const error = outputs.find((o): o is Extract<ToolOutput, { type: 'error' }> => o.type === 'error');
  const response = outputs.filter((o): o is Extract<ToolOutput, { type: 'response' }> => o.type === 'response').at(-1);
  return { outputs, result, error, response, audit, tree };
}

const missing = (what: string) => () => Promise.reject(new Error(`no ${what} configured`));

describe('availability, exactly as lib/agent/contract.ts states it', () => {
  it('the three searches are available whenever their providers are, and say which one is missing', async () => {
    const t = treeWith();
    for (const tool of [fastVectorSearch, colqwenSearch, hybridSearch]) expect(await tool.availability(t)).toEqual({ ok: true });

    const noEmbedder = treeWith({ providers: { embedder: missing('embedder') } });
    expect(await fastVectorSearch.availability(noEmbedder)).toEqual({ ok: false, reason: 'text search is not configured: no embedder configured' });
    expect(await hybridSearch.availability(noEmbedder)).toEqual({ ok: false, reason: 'hybrid search is not configured: no embedder configured' });
    expect(await colqwenSearch.availability(noEmbedder)).toEqual({ ok: true });

    const noMultiVector = treeWith({ providers: { multiVectorEmbedder: missing('multi-vector embedder') } });
    expect(await colqwenSearch.availability(noMultiVector)).toEqual({
      ok: false,
      reason: 'page search is not configured: no multi-vector embedder configured',
    });
    expect(await fastVectorSearch.availability(noMultiVector)).toEqual({ ok: true });

    const noStore = treeWith({ providers: { vectorStore: missing('vector store') } });
    for (const tool of [fastVectorSearch, colqwenSearch, hybridSearch]) {
      expect(await tool.availability(noStore)).toMatchObject({ ok: false, reason: expect.stringContaining('no vector store configured') });
    }
  });

  it('visual_interpretation: only with page-search results in the environment AND a vision model', async () => {
    const { vlm } = mockVlm('unused');
    const pages = async (deps: AgentDeps) => {
      const t = treeWith({ deps });
      await run(colqwenSearch, { query: 'wiring diagram of the controller' }, t);
      return t;
    };
    // neither
    expect(await visualInterpretation.availability(treeWith())).toEqual({
      ok: false,
      reason: 'needs page results first: run colqwen_search (or hybrid_search) to find the page',
    });
    // a VLM but no page results yet
    expect(await visualInterpretation.availability(treeWith({ deps: { ...OFFLINE, vlm } }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('needs page results first'),
    });
    // page results but no VLM
    expect(await visualInterpretation.availability(await pages(OFFLINE))).toEqual({ ok: false, reason: 'no vision model is configured (set VLM_PROVIDER)' });
    // page results, a VLM, but nothing renders page images
    expect(await visualInterpretation.availability(await pages({ ...OFFLINE, vlm, pageImage: null }))).toEqual({
      ok: false,
      reason: 'page images are not available in this deployment',
    });
    // both: available
    expect(await visualInterpretation.availability(await pages({ ...OFFLINE, vlm }))).toEqual({ ok: true });
    // text passages alone are not page results
    const textOnly = treeWith({ deps: { ...OFFLINE, vlm } });
    await run(fastVectorSearch, { query: 'supply voltage' }, textOnly);
    expect((await visualInterpretation.availability(textOnly)).ok).toBe(false);
  });

  it('summarize: only with data; auto-runs above 30,000 estimated tokens, once per state', async () => {
    const t = treeWith();
    expect(await summarize.availability(t)).toEqual({ ok: false, reason: 'nothing has been retrieved yet to summarize' });
    expect(await summarize.runIf!(t)).toBeNull();
    await run(fastVectorSearch, { query: 'supply voltage' }, t);
    expect(await summarize.availability(t)).toEqual({ ok: true });
    expect(t.environment.estimateTokens()).toBeLessThan(SUMMARIZE_ABOVE_TOKENS);
    expect(await summarize.runIf!(t)).toBeNull();
    // Grow the environment past the threshold with long passages.
    const long = 'The controller checks the supply voltage and the transducer signal every cycle. '.repeat(400);
    t.environment.add('fast_vector_search', resultOf([1, 2, 3, 4].map((i) => chunk(long, { manualId, page: i }))), 0);
    expect(t.environment.estimateTokens()).toBeGreaterThan(SUMMARIZE_ABOVE_TOKENS);
    expect(await summarize.runIf!(t)).toEqual({ max_length: 200 });
    // After the summary the environment is compacted and the same state is not summarized again.
    const { result } = await run(summarize, { max_length: 200 }, t);
    t.environment.applySummary(result!.llmMessage, t.question, result!.compactEnvironment!.maxCharsPerHit);
    expect(await summarize.runIf!(t)).toBeNull();
  });

  it('text_response: with data, or after one iteration', async () => {
    expect(await textResponse.availability(treeWith())).toEqual({ ok: false, reason: 'nothing retrieved yet: search first' });
    expect(await textResponse.availability(treeWith({ iteration: 1 }))).toEqual({ ok: true });
    const t = treeWith();
    await run(fastVectorSearch, { query: 'supply voltage' }, t);
    expect(await textResponse.availability(t)).toEqual({ ok: true });
  });
});

describe('inputs (zod defaults) and outputs over the real index', () => {
  it('fast_vector_search: default limit 5, cited passages of the sample with headings and highlight boxes', async () => {
    const { result, audit } = await run(fastVectorSearch, { query: 'supply voltage 24 V DC current consumption' });
    expect(audit[0].inputs).toEqual({ query: 'supply voltage 24 V DC current consumption', limit: 5 });
    expect(result!.name).toBe('passages');
    expect(result!.objects.length).toBeGreaterThan(0);
    expect(result!.objects.length).toBeLessThanOrEqual(5);
    for (const o of result!.objects as ChunkObject[]) {
      expect(o).toMatchObject({ kind: 'chunk', manualId, chunkId: expect.any(String), heading: expect.any(String) });
      expect(o.page).toBeGreaterThanOrEqual(1);
      expect(o.page).toBeLessThanOrEqual(10);
      expect(o.bboxes.length).toBeGreaterThan(0);
      expect(o.manualTitle).toBeTruthy();
    }
    expect(result!.metadata).toMatchObject({ count: result!.objects.length, embed_ms: expect.any(Number), search_ms: expect.any(Number) });
    // invalid input never reaches the tool
    const bad = await run(fastVectorSearch, { query: '', limit: 99 });
    expect(bad.error).toMatchObject({ recoverable: true, code: 'invalid_input' });
  });

  it('colqwen_search: default top_k 3, whole pages with preview URLs; the wiring diagram is page 4', async () => {
    const { result, audit } = await run(colqwenSearch, { query: 'wiring diagram: connector J3 pressure transducer B1, wire colours' });
    expect(audit[0].inputs).toMatchObject({ top_k: 3 });
    expect(result!.name).toBe('pages');
    const pages = result!.objects as PageObject[];
    expect(pages.length).toBe(3);
    expect(pages[0].page).toBe(4);
    for (const p of pages) {
      expect(p).toMatchObject({
        kind: 'page',
        manualId,
        previewUrl: `/manuals/${encodeURIComponent(manualId)}/pages/${p.page}/image`,
        thumbnailUrl: `/manuals/${encodeURIComponent(manualId)}/pages/${p.page}/thumb`,
        textSource: 'passages',
      });
      expect(p.text).toBeTruthy();
    }
    expect(result!.metadata.pages).toEqual(pages.map((p) => ({ manualId, page: p.page, score: p.score })));
  });

  it('hybrid_search: defaults 5 + 2, pages in ranked order, the spec table first for a spec question', async () => {
    const q = SAMPLE_QUESTIONS.find((x) => x.id === 's03')!;
    const { result, audit } = await run(hybridSearch, { query: q.question });
    expect(audit[0].inputs).toMatchObject({ text_limit: 5, visual_limit: 2 });
    expect(result!.name).toBe('hybrid');
    const ranking = result!.metadata.ranking as Array<{ page: number; score: number }>;
    expect(ranking[0].page).toBe(3);
    expect(ranking.length).toBeLessThanOrEqual(7);
    // objects come in ranking order, a page's passages together
    const pagesInOrder = [...new Set(result!.objects.map((o) => o.page))];
    expect(pagesInOrder).toEqual(ranking.map((r) => r.page));
    expect(result!.metadata).toMatchObject({ alpha: expect.any(Number), rank_ms: expect.any(Number), search_ms: expect.any(Number) });
    // pages the visual leg found carry its score and a preview
    const merged = result!.objects.filter((o): o is ChunkObject => o.kind === 'chunk' && o.visualScore !== undefined);
    expect(result!.metadata.merged_pages).toBe(merged.length);
    for (const o of merged) expect(o.previewUrl).toBe(`/manuals/${encodeURIComponent(manualId)}/pages/${o.page}/image`);
  });

  it('hybrid_search: a cross-encoder (a generated tiny ONNX model) reorders the ranked pages by its score of their best passage', async () => {
    const dir = writeTinyCrossEncoder(path.join(os.tmpdir(), `mc-tiny-ce-${process.pid}`)).dir;
    const reranker = await loadTransformersReranker({ model: dir, cacheDir: dir, allowRemote: false, log: () => {} });
    const q = SAMPLE_QUESTIONS.find((x) => x.id === 's03')!;
    const plain = await run(hybridSearch, { query: q.question, visual_limit: 0 });
    const reranked = await run(hybridSearch, { query: q.question, visual_limit: 0 }, treeWith({ deps: { ...OFFLINE, reranker } }));
    expect(plain.result!.metadata.rerank).toMatch(/^skipped: /);
    expect(reranked.result!.metadata.rerank).toBe(reranker.id);
    // The pages come out in the model's order of their best passage, and that order is not the ranker's.
    const firstPassage = (objects: Array<{ page: number; heading?: string; text?: string }>) => {
      const seen = new Map<number, string>();
      for (const o of objects) if (!seen.has(o.page)) seen.set(o.page, `${o.heading ?? ''}\n${o.text ?? ''}`);
      return seen;
    };
    const out = firstPassage(reranked.result!.objects as ChunkObject[]);
    const scores = await reranker.score(q.question, [...out.values()]);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect([...out.keys()]).not.toEqual([...firstPassage(plain.result!.objects as ChunkObject[]).keys()]);
  });

  it('visual_interpretation: the VLM reads the real rendered page PNG; its reading becomes citable page text', async () => {
    const { vlm, model } = mockVlm('The service label shows service menu PIN 4071.');
    const t = treeWith({ deps: { ...OFFLINE, vlm }, question: 'What is the factory service-menu PIN of the HX-200?' });
    await run(colqwenSearch, { query: 'rating plate service label photo', top_k: 3 }, t);
    expect(t.environment.visualPages().some((p) => p.page === RASTER_PAGE)).toBe(true);
    const { result, audit } = await run(visualInterpretation, { prompt: 'Which service menu PIN does the label show?', page: RASTER_PAGE }, t);
    expect(audit[0].inputs).toEqual({ prompt: 'Which service menu PIN does the label show?', page: RASTER_PAGE });
    expect(result!.name).toBe('interpretation');
    expect(result!.objects[0]).toMatchObject({
      kind: 'page',
      manualId,
      page: RASTER_PAGE,
      textSource: 'vlm',
      text: 'The service label shows service menu PIN 4071.',
    });
    expect(result!.metadata).toMatchObject({ page: RASTER_PAGE, model: 'mock-vlm', image_ms: expect.any(Number), vlm_ms: expect.any(Number) });
    const parts = model.doGenerateCalls[0].prompt[0].content as Array<{ type: string; mediaType?: string; data?: unknown }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'file']);
    expect(parts[1].mediaType).toBe('image/png');
    // a page outside the page-search results is refused, with the pages it could read
    const outside = await run(visualInterpretation, { prompt: 'read it', page: 9 }, t);
    expect(outside.error).toMatchObject({ recoverable: true, message: 'page 9 is not among the page search results' });
  });

  it('summarize: default max_length 200, a cited extractive summary, and a request to compact', async () => {
    const t = treeWith({ question: 'How do I calibrate the pressure transducer?' });
    await run(hybridSearch, { query: t.question }, t);
    const { result, audit } = await run(summarize, {}, t);
    expect(audit[0].inputs).toEqual({ max_length: 200 });
    expect(result!.name).toBe('summary');
    expect(result!.objects).toEqual([]);
    expect(result!.llmMessage).toMatch(/\[\d+\]/);
    expect(result!.llmMessage.split(/\s+/).length).toBeLessThanOrEqual(220);
    expect(result!.metadata).toMatchObject({ method: 'extractive', tokens_before: expect.any(Number) });
    expect(result!.compactEnvironment).toEqual({ maxCharsPerHit: 600 });
  });

  it('text_response: default include_sources, a cited extractive answer whose sources resolve to the spec page', async () => {
    const q = SAMPLE_QUESTIONS.find((x) => x.id === 's14')!;
    const t = treeWith({ question: q.question });
    await run(hybridSearch, { query: q.question }, t);
    const { response, audit } = await run(textResponse, {}, t);
    expect(audit[0].inputs).toEqual({ include_sources: true });
    expect(response).toMatchObject({ method: 'extractive', declined: false, mode: 'answer' });
    expect(response!.pages).toBeUndefined();
    for (const k of q.answer_keywords) expect(response!.text).toContain(k);
    expect(response!.sources!.length).toBeGreaterThan(0);
    expect(response!.sources!.some((s) => q.pages.includes(s.page))).toBe(true);
    for (const s of response!.sources!) expect(t.environment.hit(s.ref)).toMatchObject({ page: s.page, manualId });
    // without sources when asked
    const bare = await run(textResponse, { include_sources: false }, t);
    expect(bare.response!.sources).toEqual([]);
  });

  it('text_response: a stated answer carries the regions of the units it reads, on its cited pages; closest-page cards carry their best unit', async () => {
    const q = SAMPLE_QUESTIONS.find((x) => x.id === 's14')!;
    const t = treeWith({ question: q.question });
    await run(hybridSearch, { query: q.question }, t);
    const { response } = await run(textResponse, {}, t);
    const regions = response!.evidence!.regions!;
    expect(regions.length).toBeGreaterThan(0);
    const cited = new Set(response!.sources!.map((s) => `${s.manualId}#${s.page}`));
    for (const g of regions) {
      expect(cited.has(`${g.manualId}#${g.page}`)).toBe(true);
      expect(g.bbox[2]).toBeGreaterThan(g.bbox[0]);
      expect(g.bbox[3]).toBeGreaterThan(g.bbox[1]);
    }
    const none = SAMPLE_QUESTIONS.find((x) => x.id === 's22')!;
    const t2 = treeWith({ question: none.question });
    await run(hybridSearch, { query: none.question }, t2);
    const pages = (await run(textResponse, {}, t2)).response!.pages!;
    expect(pages.some((p) => p.region && p.region.bbox[2] > p.region.bbox[0])).toBe(true);
  });

  it("text_response with an LLM: the prompt holds the best pages' tables as grids under their headers", async () => {
    const q = SAMPLE_QUESTIONS.find((x) => x.id === 's14')!;
    const { client, model } = mockLlm({ stream: ['The X1 screws take 0.6 Nm [1].'] });
    const t = treeWith({ question: q.question, deps: { llm: client, vlm: null } });
    await run(hybridSearch, { query: q.question }, t);
    await run(textResponse, {}, t);
    const prompt = JSON.stringify(model.doStreamCalls[0].prompt);
    expect(prompt).toContain('Tables, procedures and values on the best pages');
    // A grid row: the row label and its cells between the grid's bars.
    expect(prompt).toMatch(/\| X1 [^|]*\| [^|]+\| 0\.6 Nm \|/);
  });

  it('text_response: a question the sample states no value for gets the pages form, quoting nothing', async () => {
    const q = SAMPLE_QUESTIONS.find((x) => x.id === 's22')!;
    const t = treeWith({ question: q.question });
    await run(hybridSearch, { query: q.question }, t);
    const { response } = await run(textResponse, {}, t);
    expect(response).toMatchObject({ method: 'extractive', declined: true, mode: 'pages' });
    expect(response!.text).toMatch(/^I could not find a stated value for the .+; these pages are the closest match\.$/);
    expect(response!.pages!.length).toBeGreaterThan(0);
    expect(response!.pages!.length).toBeLessThanOrEqual(3);
    expect(response!.pages![0]).toMatchObject({ manualId, snippet: expect.any(String), previewUrl: expect.stringMatching(/^\/manuals\/[^/?]+\?page=\d+/) });
  });

  it('a maker and model no manual mentions: hybrid_search looks it up and text_response declines naming it', async () => {
    const question = 'How do I update the firmware of a Rigol DP832 power supply?';
    const t = treeWith({ question });
    const { result } = await run(hybridSearch, { query: question }, t);
    expect(result!.modelLookup?.known).toEqual({ dp832: false });
    const { response } = await run(textResponse, {}, t);
    expect(response).toMatchObject({
      declined: true,
      mode: 'not_covered',
      text: 'The manuals do not cover the Rigol DP832: no manual in the library mentions it.',
    });
    // the sample's own model is known, and a question that names it is about it
    for (const [query, lookup] of [
      ['What does error E05 mean on the Acme HX-200?', { e05: true, 'hx-200': true }],
      ['Can the HX-200 run from a Rigol DP832 power supply?', { 'hx-200': true, dp832: false }],
    ] as const) {
      const t = treeWith({ question: query });
      const known = await run(hybridSearch, { query }, t);
      expect(known.result!.modelLookup?.known).toEqual(lookup);
      expect(unknownDevices(t.environment.modelLookups())).toEqual([]);
    }
    // a code is looked up too (a variant check needs it), and is no device
    const t2 = treeWith({ question: 'What does error E05 mean?' });
    const plain = await run(hybridSearch, { query: 'What does error E05 mean?' }, t2);
    expect(plain.result!.modelLookup?.known).toEqual({ e05: true });
    expect(unknownDevices(t2.environment.modelLookups())).toEqual([]);
    // a question without any designation looks nothing up
    const none = await run(hybridSearch, { query: 'How do I clean the filter?' });
    expect(none.result!.modelLookup).toBeUndefined();
  });

  it('a device whose only manual is still processing: the answer says it is not ready, not that no manual covers it', async () => {
    // A real manual row in the store, mid-way through embedding; the library index holds ready manuals only.
    const pendingId = 'pending-kl9';
    await createManual({ id: pendingId, title: 'Brio KL-9 Service Manual', fileName: 'brio-kl9.pdf', sha256: 'f'.repeat(64), sizeBytes: 1000 });
    try {
      await updateManual(pendingId, { status: 'embedding', pageCount: 40, progressDone: 10, progressTotal: 40 });
      const percent = overallPercent({ status: 'embedding', pageCount: 40, progressDone: 10, progressTotal: 40, ocrPages: 0 });
      const question = 'What supply voltage does the Brio KL-9 need?';
      const t = treeWith({ question });
      const { result } = await run(hybridSearch, { query: question }, t);
      expect(result!.modelLookup?.notReady).toMatchObject({ 'kl-9': { title: 'Brio KL-9 Service Manual', percent } });
      const { response } = await run(textResponse, {}, t);
      expect(response).toMatchObject({ declined: true, text: `The KL-9 manual is still processing (${percent} %); ask again when it is ready.` });
      // the sample's own device is ready: its question is answered as before
      const ready = treeWith({ question: 'What supply voltage does the HX-200 controller need?' });
      expect((await run(hybridSearch, { query: ready.question }, ready)).result!.modelLookup?.notReady).toBeUndefined();
    } finally {
      await deleteManualRow(pendingId);
    }
  });
});

describe('a manual still processing, searchable through its first pages', () => {
  it('is searched through its ready pages, and the answer says it is still processing', async () => {
    const id = 'processing-kl9';
    await createManual({ id, title: 'Brio KL-9 Service Manual', fileName: 'brio-kl9.pdf', sha256: 'e'.repeat(64), sizeBytes: 1000 });
    try {
      await updateManual(id, { status: 'parsing', pageCount: 40, progressDone: 2, progressTotal: 40, figureLabels: 'pending' });
      const text = 'Power supply\nThe KL-9 drive needs a supply of 48 V DC at 6 A.';
      const page = { number: 1, width: 612, height: 792, text, ocr: false, ocrText: null, imagePath: null, thumbPath: null };
      await indexTextPages(
        id,
        [page],
        [{ id: `${id}:p1:c0`, manualId: id, page: 1, heading: 'Power supply', text, ocr: false, bboxes: [{ x: 50, y: 80, w: 300, h: 12 }] }],
        1,
      );
      const t = treeWith({ question: 'What supply voltage does the Brio KL-9 drive need?', manualIds: [id] });
      const { result } = await run(hybridSearch, { query: t.question }, t);
      expect(result!.modelLookup?.notReady).toBeUndefined();
      expect(result!.objects[0]).toMatchObject({ manualId: id, page: 1 });
      const { response } = await run(textResponse, {}, t);
      expect(response!.text).toContain('“Brio KL-9 Service Manual” (searchable through page 1 of 40) is still processing; this answer may be incomplete.');
      expect(response).toMatchObject({ processing: [{ manualId: id, searchablePages: 1, pageCount: 40, figureLabels: 'pending' }] });
    } finally {
      await deleteManualRow(id);
    }
  });
});

describe('the sample ground truth through the full offline loop', () => {
  // Measured when written (rules decider, extractive answers, hashed n-gram embedder): 20 of 20
  // answerable questions cite an expected page, 15 of 20 answers contain every keyword, and the
  // 3 unanswerable ones are declined. Since the learned ranker (lib/ranking) replaced the lexical
  // leg, s21 (RS-485 cable length) is answered with the communication row instead of declined:
  // the extractive decline rule still awaits its calibrated rewrite, so 2 of 3 are
  // required here. The assertions leave a margin for embedder or OCR drift.
  it('most answerable questions cite a right page; the unanswerable ones are declined', async () => {
    const outcomes = [];
    for (const q of SAMPLE_QUESTIONS) {
      const events = await collectTurn({ tools: defaultTools, question: q.question, manualIds: [manualId], services: agentServices(OFFLINE) });
      const response = eventsOf(events, 'response')[0];
      expect(eventsOf(events, 'done')[0].status).toBe('done');
      outcomes.push({ q, response });
    }
    const answerable = outcomes.filter((o) => o.q.pages.length > 0);
    const unanswerable = outcomes.filter((o) => o.q.pages.length === 0);
    const citesRightPage = answerable.filter(
      (o) => !o.response.declined && o.response.sources.some((s) => s.manualId === manualId && o.q.pages.includes(s.page)),
    );
    const keywords = answerable.filter((o) =>
      o.q.answer_keywords.every((k) => o.response.text.replace(/\s+/g, '').toLowerCase().includes(k.replace(/\s+/g, '').toLowerCase())),
    );
    const summary = `right page cited ${citesRightPage.length}/${answerable.length}, keywords ${keywords.length}/${answerable.length}`;
    expect(citesRightPage.length / answerable.length, summary).toBeGreaterThanOrEqual(0.85);
    expect(keywords.length / answerable.length, summary).toBeGreaterThanOrEqual(0.6);
    const declined = unanswerable.filter((o) => o.response.declined);
    expect(declined.length, unanswerable.map((o) => `${o.q.id}: ${o.response.text}`).join('\n')).toBeGreaterThanOrEqual(unanswerable.length - 1);
    for (const o of declined) {
      // The `pages` form: one sentence, no quoted paragraph, and the closest pages of the sample.
      expect(o.response.mode).toBe('pages');
      expect(o.response.text).toMatch(/^I could not find .*; these pages are the closest match\.$/);
      expect(o.response.pages!.length).toBeGreaterThan(0);
      expect(o.response.pages!.length).toBeLessThanOrEqual(3);
      for (const p of o.response.pages!) expect(p).toMatchObject({ manualId, previewUrl: expect.stringContaining(`?page=${p.page}`) });
      expect(o.response.sources.map((s) => s.page).sort()).toEqual(o.response.pages!.map((p) => p.page).sort());
    }
    for (const o of answerable.filter((a) => !a.response.declined)) expect(o.response.mode).toBe('answer');
  }, 120_000);

  it('a visual question with a VLM: the page leg finds the figure, the VLM reads it, the answer cites it', async () => {
    const { vlm, model } = mockVlm('Connector J3 (SENSOR): the transducer B1 signal wire is white (WH).');
    const q = SAMPLE_QUESTIONS.find((x) => x.id === 's06')!;
    const events = await collectTurn({ tools: defaultTools, question: q.question, manualIds: [manualId], services: agentServices({ ...OFFLINE, vlm }) });
    expect(eventsOf(events, 'decision').map((d) => d.tool)).toEqual(['hybrid_search', 'visual_interpretation', 'text_response']);
    const read = eventsOf(events, 'result').find((r) => r.tool === 'visual_interpretation')!;
    expect(read.metadata).toMatchObject({ manualId, page: 4 });
    expect(model.doGenerateCalls).toHaveLength(1);
    const response = eventsOf(events, 'response')[0];
    expect(response.text).toContain('J3');
    expect(response.text).toContain('white');
    expect(response.sources.some((s) => s.page === 4 && s.kind === 'page')).toBe(true);
  });
});
