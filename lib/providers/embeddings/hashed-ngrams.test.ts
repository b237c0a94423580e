import { describe, expect, it } from 'vitest';
import { HashedNgramEmbedder } from './hashed-ngrams';
import { hasTokenVectors } from './token-vectors';
import { dot } from './testing/vectors';

const norm = (v: Float32Array) => Math.sqrt(dot(v, v));

describe('HashedNgramEmbedder', () => {
  const e = new HashedNgramEmbedder();

  it('returns deterministic unit vectors of the declared size', async () => {
    const [a, b] = await e.embedDocuments(['Battery 400 mAh, charging current 0.8 A', 'Battery 400 mAh, charging current 0.8 A']);
    expect(a).toHaveLength(e.dimensions);
    expect(norm(a)).toBeCloseTo(1, 5);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(e.provider).toBe('offline');
    expect(e.fallbackReason).toBeUndefined();
  });

  it('returns a zero vector for text with no content tokens', async () => {
    const v = await e.embedQuery('what is the of and');
    expect(norm(v)).toBe(0);
  });

  it('matches OCR-merged and unit-glued forms better than unrelated text', async () => {
    const q = await e.embedQuery('GND pin PA8');
    const merged = await e.embedQuery('GNDPA8+5U');
    const other = await e.embedQuery('stepper motor current');
    expect(dot(q, merged)).toBeGreaterThan(0.2);
    expect(dot(q, merged)).toBeGreaterThan(dot(q, other) + 0.15);

    const spaced = await e.embedQuery('the 3.3 V regulator');
    const glued = await e.embedQuery('the 3.3V regulator');
    expect(dot(spaced, glued)).toBeCloseTo(1, 5);
  });

  it('ranks the passage that answers a question first', async () => {
    const docs = [
      'Power: USB 5V 120mA, built-in 400mAh battery, maximum charging current 0.8A',
      'Calibration: connect OPEN, SHORT and LOAD standards in turn, then press DONE',
      'The trigger level is set with the TRIGGER menu; slope rising or falling',
    ];
    const vecs = await e.embedDocuments(docs);
    const q = await e.embedQuery('How big is the battery and what charging current does it draw?');
    const scores = vecs.map((v) => dot(q, v));
    expect(scores.indexOf(Math.max(...scores))).toBe(0);
  });

  it('keeps acronym CAN that the stopword list would drop as the verb "can"', async () => {
    const can = await e.embedQuery('CAN');
    expect(norm(can)).toBeCloseTo(1, 5);
    expect(norm(await e.embedQuery('can'))).toBe(0);
  });

  it('drops a question\'s scaffolding words (the ISO list\'s "want", "use") from queries but not from documents', async () => {
    const asked = await e.embedQuery('I want to use the spindle relay');
    const bare = await e.embedQuery('spindle relay');
    expect(dot(asked, bare)).toBeCloseTo(1, 5);
    const [doc] = await e.embedDocuments(['I want to use the spindle relay']);
    expect(dot(doc, bare)).toBeLessThan(0.99);
    const [queryBag] = await e.embedTokens(['Which relay do I use?'], { kind: 'query' });
    const [docBag] = await e.embedTokens(['Which relay do I use?'], { kind: 'document' });
    expect(queryBag.tokens).toEqual(['relay']);
    expect(docBag.tokens).toContain('use');
  });

  it('has an id that changes with every setting (it keys caches and indexes)', () => {
    const ids = new Set([
      e.id,
      new HashedNgramEmbedder({ dimensions: 512 }).id,
      new HashedNgramEmbedder({ minN: 2 }).id,
      new HashedNgramEmbedder({ seed: 1 }).id,
    ]);
    expect(ids.size).toBe(4);
    expect(new HashedNgramEmbedder().id).toBe(e.id);
  });

  it('gives one normalised vector per distinct content token', async () => {
    expect(hasTokenVectors(e)).toBe(true);
    const [bag] = await e.embedTokens(['The pump pump is ON, the Pump is on.'], { kind: 'document' });
    expect(bag.tokens).toEqual(['pump', 'on']);
    expect(bag.vectors).toHaveLength(2);
    for (const v of bag.vectors) {
      expect(v).toHaveLength(e.tokenDimensions);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it('carries a fallback reason when the factory substitutes it', () => {
    const f = e.withFallbackReason('model X not found offline');
    expect(f.fallbackReason).toBe('model X not found offline');
    expect(f.id).toBe(e.id);
  });

  it('stops when the signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort(new Error('stopped'));
    await expect(e.embedDocuments(['a b c'], { signal: ac.signal })).rejects.toThrow('stopped');
  });

  it('rejects an empty n-gram range', () => {
    expect(() => new HashedNgramEmbedder({ minN: 4, maxN: 3 })).toThrow(/n-gram range/);
  });
});
