import { describe, expect, it } from 'vitest';
import type { ChunkRecord, PageRecord } from '../../providers/types';
import { gaussian, jitter, pagesFor, perturbText, prng, syntheticChunks, syntheticPages } from './corpus';
import { sseJson } from './server';

const unit = (values: number[]) => {
  const n = Math.hypot(...values);
  return new Float32Array(values.map((x) => x / n));
};
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

const SEEDS: ChunkRecord[] = [0, 1, 2].map((i) => ({
  id: `m${i % 2}:${i}:0`,
  manualId: `m${i % 2}`,
  page: i + 1,
  heading: 'H',
  text: 'the pump motor draws 6.8 A at full load and the fuse is rated 10 A',
  ocr: false,
  bboxes: [],
  vector: unit(Array.from({ length: 64 }, (_, d) => Math.sin(d + i))),
}));

describe('synthetic corpus', () => {
  it('jitters a unit vector to another unit vector close to it', () => {
    const v = SEEDS[0].vector;
    const j = jitter(v, 0.2, gaussian(prng(7)));
    expect(Math.hypot(...j)).toBeCloseTo(1, 5);
    const cos = dot(v, j);
    expect(cos).toBeGreaterThan(0.95);
    expect(cos).toBeLessThan(0.9999);
    expect(jitter(new Float32Array(4), 0, gaussian(prng(1)))).toEqual(new Float32Array(4));
  });

  it('replicates seeds with perturbed ids and manual ids, deterministically, in batches', () => {
    const batches = [...syntheticChunks(SEEDS, 0, 8, 3)];
    expect(batches.map((b) => b.length)).toEqual([3, 3, 2]);
    const all = batches.flat();
    expect(all.slice(0, 3)).toEqual(SEEDS); // replica 0 is the real chunk
    expect(all.map((c) => c.id)).toEqual(['m0:0:0', 'm1:1:0', 'm0:2:0', 'm0:0:0~r1', 'm1:1:0~r1', 'm0:2:0~r1', 'm0:0:0~r2', 'm1:1:0~r2']);
    expect(all[4]).toMatchObject({ manualId: 'm1~r1', page: 2 });
    expect(new Set(all.map((c) => c.id)).size).toBe(8);
    // The same record whatever the batching and starting point (a corpus grows in steps).
    const again = [...syntheticChunks(SEEDS, 5, 8, 100)].flat();
    expect(again).toEqual(all.slice(5));
    expect(all[3].text.split(' ').length).toBeLessThanOrEqual(SEEDS[0].text.split(' ').length);
  });

  it('replicates page bags vector by vector and scales pages to chunks with a cap', () => {
    const pages: PageRecord[] = [{ manualId: 'm0', page: 1, text: 't', vectors: [SEEDS[0].vector, SEEDS[1].vector] }];
    const [batch] = [...syntheticPages(pages, 0, 3, 10)];
    expect(batch.map((p) => p.manualId)).toEqual(['m0', 'm0~r1', 'm0~r2']);
    expect(batch[2].vectors).toHaveLength(2);
    expect(dot(batch[2].vectors[1], SEEDS[1].vector)).toBeGreaterThan(0.9);
    expect(pagesFor(100_000, 101, 50, 10_000)).toBe(10_000);
    expect(pagesFor(1000, 100, 50, 10_000)).toBe(500);
    expect(pagesFor(10, 0, 0, 10)).toBe(0);
  });

  it('drops words but never all of them', () => {
    expect(perturbText('one two three', 1, () => 0)).toBe('one');
    expect(perturbText('one two three', 0, () => 0.5)).toBe('one two three');
  });
});

describe('UI message stream (server-sent events) parsing', () => {
  it('yields each event as it completes, across chunk boundaries, without the closing [DONE]', async () => {
    const enc = new TextEncoder();
    const parts = ['data: {"type":"start"}\n\ndata: {"type":"data-st', 'atus","n":1}\n\n', 'data: {"type":"finish"}\n\ndata: [DONE]'];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(enc.encode(p));
        c.close();
      },
    });
    const lines = [];
    for await (const l of sseJson(body)) lines.push(l);
    expect(lines).toEqual([{ type: 'start' }, { type: 'data-status', n: 1 }, { type: 'finish' }]);
  });
});
