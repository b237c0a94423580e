/**
 * The transformers.js path against a tiny BERT-shaped ONNX model written by the test (no weights
 * can be downloaded here). Remote loading is off unless a test opts in against a local server.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { row, writeTinyBertModel, type TinyBertModel } from './testing/tiny-bert';
import { loadTransformersEmbedder, ModelUnavailableError, remoteDisabledByEnv, resolveLocalModel, splitWindows } from './transformers';
import { l2normalize } from './util';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-tiny-bert-'));
const quiet = () => {};
let tiny: TinyBertModel;

beforeAll(() => {
  tiny = writeTinyBertModel(path.join(tmp, 'plain'));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Expected hidden state of token `id` at an attended position with token type 0. */
function hidden(id: number): Float32Array {
  const w = row(tiny.wordEmb, id, tiny.dim);
  const t = row(tiny.typeEmb, 0, tiny.dim);
  return w.map((x, i) => x + t[i] + tiny.maskBias[i]);
}

const ids = (words: string[]) => words.map((w) => tiny.vocab.indexOf(w));
const CLS = 2;
const SEP = 3;

function expectClose(actual: Float32Array, expected: Float32Array) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 5));
}

describe('transformers embedder on a generated tiny model', () => {
  it('is not allowed to reach the network under vitest by default', () => {
    expect(remoteDisabledByEnv()).toBe(true);
    expect(remoteDisabledByEnv({ HF_HUB_OFFLINE: '1' })).toBe(true);
    expect(remoteDisabledByEnv({ HF_HUB_OFFLINE: '0' })).toBe(false);
  });

  it('mean-pools the last hidden state over real tokens and normalises', async () => {
    const e = await loadTransformersEmbedder({ model: 'test/tiny-mean', modelDir: tiny.dir, cacheDir: path.join(tmp, 'cache'), log: quiet });
    expect(e.provider).toBe('transformers');
    expect(e.dimensions).toBe(tiny.dim);
    expect(e.pooling).toBe('mean');
    expect(e.id).toBe('transformers:test/tiny-mean:fp32:mean');

    // "pump voltages" → [CLS] pump voltage ##s [SEP]; padding in the batch must not count.
    const [short, long] = await e.embedDocuments(['pump voltages', 'the pump motor voltage fuse error code']);
    const seq = [CLS, ...ids(['pump', 'voltage', '##s']), SEP];
    const mean = new Float32Array(tiny.dim);
    for (const id of seq) hidden(id).forEach((x, i) => (mean[i] += x / seq.length));
    expectClose(short, l2normalize(mean));
    expect(long).toHaveLength(tiny.dim);

    // No instruction prefix for an unknown model: query and document vectors agree.
    expectClose(await e.embedQuery('pump voltages'), short);
  });

  it('uses CLS pooling when the folder says so (sentence-transformers 1_Pooling)', async () => {
    const dir = path.join(tmp, 'cls');
    writeTinyBertModel(dir, { pooling: 'cls' });
    const e = await loadTransformersEmbedder({ model: dir, cacheDir: path.join(tmp, 'cache'), log: quiet });
    expect(e.pooling).toBe('cls');
    const [a, b] = await e.embedDocuments(['reset button', 'green led']);
    // The CLS state is the CLS row (no attention layers in the tiny model), whatever the text.
    expectClose(a, l2normalize(hidden(CLS)));
    expectClose(b, a);
  });

  it('finds <modelDir>/<model id> and picks the quantized file when that is all there is', async () => {
    const root = path.join(tmp, 'models-root');
    writeTinyBertModel(path.join(root, 'Org', 'tiny-q8'), { onnxFile: 'model_quantized.onnx' });
    expect(resolveLocalModel({ model: 'Org/tiny-q8', modelDir: root, cacheDir: path.join(tmp, 'nowhere') })).toBe(path.join(root, 'Org', 'tiny-q8'));
    const e = await loadTransformersEmbedder({ model: 'Org/tiny-q8', modelDir: root, cacheDir: path.join(tmp, 'cache'), log: quiet });
    expect(e.id).toBe('transformers:Org/tiny-q8:q8:mean');
  });

  it('applies the bge query instruction (CLS pooling, so only the prefix changes tokens)', async () => {
    const cache = path.join(tmp, 'bge-cache');
    writeTinyBertModel(path.join(cache, 'Xenova', 'bge-small-en-v1.5'));
    const e = await loadTransformersEmbedder({ model: 'Xenova/bge-small-en-v1.5', cacheDir: cache, log: quiet, pooling: 'mean' });
    const doc = await e.embedDocuments(['pump']);
    const query = await e.embedQuery('pump');
    // The instruction words are mostly [UNK] in the tiny vocab, so the mean moves.
    expect(Array.from(query)).not.toEqual(Array.from(doc[0]));
  });

  it('returns contextual token vectors without special tokens and punctuation', async () => {
    const e = await loadTransformersEmbedder({ model: tiny.dir, cacheDir: path.join(tmp, 'cache'), log: quiet });
    const [bag] = await e.embedTokens(['Press the reset button, then the red LED.'], { kind: 'document' });
    expect(bag.tokens).toEqual(
      ['press', 'the', 'reset', 'button', 'then', 'the', 'red', 'led'].map((w) => (tiny.vocab.includes(w) ? w : '[UNK]')).filter((t) => t !== '[UNK]'),
    );
    expect(bag.vectors).toHaveLength(bag.tokens.length);
    expectClose(bag.vectors[0], l2normalize(hidden(tiny.vocab.indexOf('press'))));
  });

  it('covers texts longer than the model limit with windows', async () => {
    const e = await loadTransformersEmbedder({ model: tiny.dir, cacheDir: path.join(tmp, 'cache'), log: quiet, maxLength: 8 });
    const text = Array.from({ length: 20 }, () => 'pump').join(' ');
    const [bag] = await e.embedTokens([text], { kind: 'document' });
    expect(bag.tokens).toHaveLength(20);
    expect(splitWindows([CLS, 10, 11, 12, 13, 14, SEP], 4)).toEqual([
      [CLS, 10, 11, SEP],
      [CLS, 12, 13, SEP],
      [CLS, 14, SEP],
    ]);
  });

  it('fails clearly when the model is absent and remote loading is off', async () => {
    const err = await loadTransformersEmbedder({ model: 'Xenova/not-here', cacheDir: path.join(tmp, 'empty'), log: quiet }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelUnavailableError);
    expect(String(err.message)).toMatch(/not found offline.*remote downloads are disabled/);
  });

  it('fails clearly when the hub is unreachable (closed port)', async () => {
    const err = await loadTransformersEmbedder({
      model: 'Xenova/not-here',
      cacheDir: path.join(tmp, 'empty'),
      allowRemote: true,
      remoteHost: 'http://127.0.0.1:1/',
      probeTimeoutMs: 500,
      log: quiet,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelUnavailableError);
    expect(String(err.message)).toMatch(/hub is unreachable/);
  });
});

describe('first-use download into DATA_DIR/models', () => {
  let server: http.Server;
  let host: string;
  const requests: string[] = [];
  let hub: TinyBertModel;

  beforeAll(async () => {
    // A fake hub serving <org>/<name>/resolve/main/<file> from a tiny model folder.
    hub = writeTinyBertModel(path.join(tmp, 'hub-src'), { onnxFile: 'model_quantized.onnx' });
    server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const m = /^\/Org\/remote-tiny\/resolve\/main\/(.+)$/.exec(req.url ?? '');
      const file = m && path.join(hub.dir, decodeURIComponent(m[1]));
      if (!file || !fs.existsSync(file)) {
        res.writeHead(404).end('not found');
        return;
      }
      const body = fs.readFileSync(file);
      res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(() => server.close());

  it('fetches the files once, logs progress, and loads from the cache afterwards', async () => {
    const cacheDir = path.join(tmp, 'data-models');
    const logs: string[] = [];
    const first = await loadTransformersEmbedder({ model: 'Org/remote-tiny', cacheDir, allowRemote: true, remoteHost: host, log: (m) => logs.push(m) });
    expect(first.id).toBe('transformers:Org/remote-tiny:q8:mean');
    expect(requests[0]).toBe('HEAD /Org/remote-tiny/resolve/main/config.json');
    expect(requests).toContain('GET /Org/remote-tiny/resolve/main/onnx/model_quantized.onnx');
    expect(fs.existsSync(path.join(cacheDir, 'Org', 'remote-tiny', 'onnx', 'model_quantized.onnx'))).toBe(true);
    expect(logs.some((l) => l.startsWith('fetching Org/remote-tiny/'))).toBe(true);
    expect(logs.some((l) => l.startsWith('cached Org/remote-tiny'))).toBe(true);

    const before = requests.length;
    const second = await loadTransformersEmbedder({ model: 'Org/remote-tiny', cacheDir, allowRemote: false, log: quiet });
    expect(requests.length).toBe(before);
    expect(Array.from(await second.embedQuery('pump'))).toEqual(Array.from(await first.embedQuery('pump')));
  });

  it('reports a model the hub does not have', async () => {
    const err = await loadTransformersEmbedder({ model: 'Org/missing', cacheDir: path.join(tmp, 'x'), allowRemote: true, remoteHost: host, log: quiet }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ModelUnavailableError);
    expect(String(err.message)).toMatch(/hub answered 404/);
  });
});
