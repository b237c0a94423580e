/**
 * The cross-encoder reranker against a tiny ONNX cross-encoder written by the test (no weights
 * can be downloaded here). Its logit is a hand-computable lexical overlap:
 *   Σ_words count_query(w)·count_passage(w) + SEP_WEIGHT (the pair's final [SEP] kept)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createReranker, getReranker, resetReranker } from '.';
import { loadProviderConfig } from '../roles';
import { SEP_WEIGHT, TWO_LABEL_CLASS0_BIAS, writeTinyCrossEncoder } from './testing/tiny-cross-encoder';
import { loadTransformersReranker, ModelUnavailableError, RERANK_BATCH_SIZE } from './transformers';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-tiny-ce-'));
const quiet = () => {};
const cacheDir = path.join(tmp, 'cache');
let single: string;

beforeAll(() => {
  single = writeTinyCrossEncoder(path.join(tmp, 'single')).dir;
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('transformers cross-encoder on a generated tiny model', () => {
  it('loads from a folder path and scores (query, passage) pairs by their single logit', async () => {
    const r = await loadTransformersReranker({ model: single, cacheDir, log: quiet });
    expect(r.id).toBe(`transformers:${single}:fp32`);
    const scores = await r.score('pump voltage', ['green led', 'the pump voltage fuse', 'pump pump']);
    // 'green led': no shared word; 'the pump voltage fuse': pump + voltage; 'pump pump': 2 × pump.
    expect(scores[0]).toBeCloseTo(0 + SEP_WEIGHT, 6);
    expect(scores[1]).toBeCloseTo(2 + SEP_WEIGHT, 6);
    expect(scores[2]).toBeCloseTo(2 + SEP_WEIGHT, 6);
    for (const s of scores) expect(Number.isFinite(s)).toBe(true);
  });

  it('finds <RERANKER_MODEL_DIR>/<model id> and DATA_DIR/models/<model id>, preferring q8 when that is all there is', async () => {
    const root = path.join(tmp, 'models-root');
    writeTinyCrossEncoder(path.join(root, 'Org', 'tiny-ce'), { onnxFile: 'model_quantized.onnx' });
    const fromDir = await loadTransformersReranker({ model: 'Org/tiny-ce', modelDir: root, cacheDir: path.join(tmp, 'nowhere'), log: quiet });
    expect(fromDir.id).toBe('transformers:Org/tiny-ce:q8');
    const fromCache = await loadTransformersReranker({ model: 'Org/tiny-ce', cacheDir: root, log: quiet });
    expect(await fromCache.score('reset button', ['press the reset button'])).toEqual(await fromDir.score('reset button', ['press the reset button']));
  });

  it('is deterministic, and a batch scores each passage as it would alone', async () => {
    const r = await loadTransformersReranker({ model: single, cacheDir, log: quiet });
    const words = ['pump', 'motor', 'voltage', 'fuse', 'error', 'code', 'reset', 'button', 'battery', 'ground'];
    // More passages than one batch, of very different lengths, so sorting and padding both happen.
    const passages = Array.from({ length: RERANK_BATCH_SIZE * 2 + 3 }, (_, i) =>
      Array.from({ length: 1 + ((i * 7) % 13) }, (_, k) => words[(i + k * 3) % words.length]).join(' '),
    );
    const query = 'pump fuse error code';
    const batch = await r.score(query, passages);
    expect(await r.score(query, passages)).toEqual(batch);
    const alone: number[] = [];
    for (const p of passages) alone.push(...(await r.score(query, [p])));
    batch.forEach((s, i) => expect(s).toBeCloseTo(alone[i], 6));
    // The scores really differ between passages (a constant would pass the checks above).
    expect(new Set(batch.map((s) => s.toFixed(3))).size).toBeGreaterThan(3);
    expect(await r.score(query, [])).toEqual([]);
  });

  it('ranks by the query: the same passages come out in a different order for another query', async () => {
    const r = await loadTransformersReranker({ model: single, cacheDir, log: quiet });
    const passages = ['green led on', 'battery charge current', 'press the reset button'];
    const rank = async (q: string) => {
      const s = await r.score(q, passages);
      return passages.map((_, i) => i).sort((a, b) => s[b] - s[a]);
    };
    expect(await rank('how to charge the battery')).toEqual([1, 2, 0]);
    expect(await rank('red or green led')).toEqual([0, 1, 2]);
    expect((await rank('reset button'))[0]).toBe(2);
  });

  it('uses logit(relevant) − logit(not relevant) for a two-label head', async () => {
    const two = writeTinyCrossEncoder(path.join(tmp, 'two'), { labels: 2 }).dir;
    const r = await loadTransformersReranker({ model: two, cacheDir, log: quiet });
    const scores = await r.score('pump voltage', ['green led', 'the pump voltage fuse']);
    expect(scores[0]).toBeCloseTo(SEP_WEIGHT - TWO_LABEL_CLASS0_BIAS, 6);
    expect(scores[1]).toBeCloseTo(2 + SEP_WEIGHT - TWO_LABEL_CLASS0_BIAS, 6);
  });

  it('truncates long pairs to the model length, cutting the passage but keeping the closing [SEP]', async () => {
    // maxLength 8: [CLS] pump [SEP] + 4 passage tokens + [SEP]. The passage's final "pump" is cut.
    const r = await loadTransformersReranker({ model: single, cacheDir, log: quiet, maxLength: 8 });
    const [cut, kept] = await r.score('pump', ['motor motor motor motor motor pump', 'pump motor']);
    expect(cut).toBeCloseTo(0 + SEP_WEIGHT, 6);
    expect(kept).toBeCloseTo(1 + SEP_WEIGHT, 6);
  });

  it('respects the abort signal before and between batches', async () => {
    const r = await loadTransformersReranker({ model: single, cacheDir, log: quiet });
    const passages = Array.from({ length: RERANK_BATCH_SIZE * 4 }, (_, i) => `pump ${'motor '.repeat(i % 5)}`);
    const aborted = new AbortController();
    aborted.abort(new Error('user left'));
    const before = r.forwardPasses;
    await expect(r.score('pump', passages, { signal: aborted.signal })).rejects.toThrow('user left');
    expect(r.forwardPasses).toBe(before);

    // Aborted while the first batch runs: the remaining three batches are not started.
    const ctrl = new AbortController();
    const pending = r.score('pump', passages, { signal: ctrl.signal });
    ctrl.abort(new Error('superseded'));
    await expect(pending).rejects.toThrow('superseded');
    expect(r.forwardPasses).toBe(before + 1);
  });

  it('says clearly when the model is absent and remote loading is off', async () => {
    const err = await loadTransformersReranker({ model: 'Xenova/not-here', cacheDir: path.join(tmp, 'empty'), log: quiet }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelUnavailableError);
    expect(String(err.message)).toMatch(/not found offline.*remote downloads are disabled/);
    const bad = await loadTransformersReranker({ model: path.join(tmp, 'no-such-folder'), cacheDir, log: quiet }).catch((e) => e);
    expect(String(bad.message)).toMatch(/missing config\.json/);
  });
});

describe('getReranker', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetReranker();
  });

  it('returns null with the reason when no model can be had, without throwing', async () => {
    process.env.DATA_DIR = path.join(tmp, 'empty-data');
    delete process.env.RERANKER;
    delete process.env.RERANKER_MODEL;
    delete process.env.RERANKER_MODEL_DIR;
    const status = await getReranker();
    expect(status.reranker).toBeNull();
    expect(status.reason).toMatch(/Xenova\/ms-marco-MiniLM-L-6-v2 not found offline/);
    // Kept: the next call does not look again.
    expect(await getReranker()).toBe(status);
  });

  it('is configured by RERANKER, RERANKER_MODEL and RERANKER_MODEL_DIR', () => {
    expect(loadProviderConfig({}).reranker).toMatchObject({ provider: 'transformers', mode: 'offline', model: 'Xenova/ms-marco-MiniLM-L-6-v2' });
    expect(loadProviderConfig({ RERANKER_MODEL: 'Xenova/bge-reranker-base', RERANKER_MODEL_DIR: '/models' }).reranker).toMatchObject({
      provider: 'transformers',
      model: 'Xenova/bge-reranker-base',
      modelDir: '/models',
    });
    expect(() => loadProviderConfig({ RERANKER: 'none', RERANKER_MODEL: 'Xenova/bge-reranker-base' })).toThrow(/RERANKER_MODEL is set but RERANKER=none/);
    expect(() => loadProviderConfig({ RERANKER: 'colbert' })).toThrow(/RERANKER must be one of: auto, none, transformers/);
  });

  it('is off with RERANKER=none', async () => {
    const status = await createReranker(loadProviderConfig({ RERANKER: 'none' }));
    expect(status).toEqual({ reranker: null, reason: 'turned off (RERANKER=none)' });
  });

  it('loads the model from RERANKER_MODEL_DIR/<RERANKER_MODEL> when it is there', async () => {
    const root = path.join(tmp, 'env-models');
    writeTinyCrossEncoder(path.join(root, 'Org', 'env-ce'));
    process.env.DATA_DIR = path.join(tmp, 'env-data');
    process.env.RERANKER_MODEL = 'Org/env-ce';
    process.env.RERANKER_MODEL_DIR = root;
    const { reranker, reason } = await getReranker();
    expect(reason).toBeUndefined();
    expect(reranker?.id).toBe('transformers:Org/env-ce:fp32');
    expect(await reranker!.score('ground pin', ['ground pin', 'red led'])).toEqual([2 + SEP_WEIGHT, SEP_WEIGHT]);
  });
});
