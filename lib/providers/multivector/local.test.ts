import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '@/test/scratch';
import { VectorCache } from '../embeddings/cache';
import { HashedNgramEmbedder } from '../embeddings/hashed-ngrams';
import type { TokenOptions, TokenVectors, TokenVectorSource } from '../embeddings/token-vectors';
import { LocalMultiVectorEmbedder, OFFLINE_MAX_VECTORS_PER_PAGE } from './local';
import { maxSim } from './maxsim';

const tmp = scratchDir('mc-mv-local-');

const PAGES = [
  'Power supply: 12-24 V input. The MP1584EN buck converter delivers up to 2.5 A output current.',
  'Status LEDs: LED1 lights when FAN0 is on; LED2 shows the hot bed heater; the red LED is 3.3 V power.',
  'Firmware update: copy firmware.bin to the SD card root, insert it, and power cycle the board.',
  // An image-only page without OCR text.
  '',
];

describe('LocalMultiVectorEmbedder with the offline token vectors', () => {
  const mv = new LocalMultiVectorEmbedder(new HashedNgramEmbedder(), { maxVectorsPerPage: OFFLINE_MAX_VECTORS_PER_PAGE });

  it('describes itself from its token source', () => {
    expect(mv.provider).toBe('local');
    expect(mv.dimensions).toBe(128);
    expect(mv.maxVectorsPerPage).toBe(256);
    expect(mv.id).toMatch(/^local:offline:hashed-ngrams@2:tokens:128:[0-9a-f]{8}:pool256-ward$/);
  });

  it('finds the right page by MaxSim, with an empty bag for a page without text', async () => {
    const bags = await mv.embedPages(PAGES.map((text) => ({ text })));
    expect(bags.map((b) => b.length > 0)).toEqual([true, true, true, false]);
    const rank = async (q: string) => {
      const qv = await mv.embedQuery(q);
      const scores = bags.map((b) => maxSim(qv, b));
      return scores.indexOf(Math.max(...scores));
    };
    expect(await rank('Which buck converter chip supplies the board and how much current?')).toBe(0);
    expect(await rank('Which status LED tells me FAN0 is switched on?')).toBe(1);
    expect(await rank('how do I update the firmware from an SD card')).toBe(2);
  });

  it('pools long pages down to the bound', async () => {
    const small = new LocalMultiVectorEmbedder(new HashedNgramEmbedder(), { maxVectorsPerPage: 16 });
    const text = Array.from({ length: 120 }, (_, i) => `signal${i} PA${i}`).join(' ');
    const [bag] = await small.embedPages([{ text }]);
    expect(bag).toHaveLength(16);
    for (const v of bag) expect(Math.hypot(...v)).toBeCloseTo(1, 4);
  });
});

/** A costly token source (stands in for a transformer): counts the texts it embeds. */
class CountingSource implements TokenVectorSource {
  readonly tokenVectorsId = 'test:tokens';
  readonly tokenDimensions = 2;
  seen: string[] = [];
  async embedTokens(texts: string[], _opts: TokenOptions): Promise<TokenVectors[]> {
    this.seen.push(...texts);
    return texts.map((t) => {
      const words = t.split(/\s+/).filter(Boolean);
      return { tokens: words, vectors: words.map((w) => (w.length % 2 ? Float32Array.of(1, 0) : Float32Array.of(0, 1))) };
    });
  }
}

describe('LocalMultiVectorEmbedder with a cache', () => {
  it('reuses cached page bags instead of running the token source again', async () => {
    const cache = await VectorCache.open(path.join(tmp, 'embeddings.db'));
    try {
      const source = new CountingSource();
      const mv = new LocalMultiVectorEmbedder(source, { cache, maxVectorsPerPage: 8, batchSize: 2 });
      const pages = [{ text: 'a bb ccc' }, { text: 'dddd' }, { text: 'a bb ccc' }];
      const first = await mv.embedPages(pages);
      expect(source.seen).toEqual(['a bb ccc', 'dddd', 'a bb ccc']);
      const second = await mv.embedPages(pages);
      expect(source.seen).toHaveLength(3);
      expect(second.map((b) => b.map((v) => Array.from(v)))).toEqual(first.map((b) => b.map((v) => Array.from(v))));
    } finally {
      cache.close();
    }
  });

  it('caps query vectors at 64', async () => {
    const mv = new LocalMultiVectorEmbedder(new CountingSource());
    const q = await mv.embedQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '));
    expect(q).toHaveLength(64);
  });

  it('stops between batches when aborted', async () => {
    const mv = new LocalMultiVectorEmbedder(new CountingSource());
    await expect(mv.embedPages([{ text: 'x' }], { signal: AbortSignal.abort(new Error('cancelled')) })).rejects.toThrow('cancelled');
  });
});
