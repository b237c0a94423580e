import { describe, expect, it } from 'vitest';
import { candidateFeatures, FEATURES } from './features';
import { LibraryIndex, type Corpus } from './library-index';
import { train } from './model';
import { rankPages } from './rank';

const chunk = (manualId: string, page: number, heading: string, text: string) => ({
  id: `${manualId}:${page}:${heading}`,
  manualId,
  page,
  heading,
  text,
  ocr: false,
  bboxes: [],
});

// Two manuals that share vocabulary: which device the question names must pick the manual.
const corpus: Corpus = {
  manuals: [
    { id: 'a', title: 'Acme HX-200 Press Controller', fileName: 'acme-hx200.pdf' },
    { id: 'b', title: 'Brill DP832 Power Supply', fileName: 'brill-dp832.pdf' },
  ],
  pages: [
    { manualId: 'a', number: 1, text: 'Acme HX-200 Press Controller user manual' },
    { manualId: 'a', number: 2, text: 'Specifications\nSupply voltage 24 V DC\nFuse 2 A' },
    { manualId: 'a', number: 3, text: 'Error codes\nE05 overpressure\nE07 sensor fault' },
    { manualId: 'b', number: 1, text: 'Brill DP832 Power Supply user guide' },
    { manualId: 'b', number: 2, text: 'Specifications\nOutput voltage 0 to 30 V\nFuse 5 A' },
  ],
  chunks: [
    chunk('a', 2, 'Specifications', 'Supply voltage 24 V DC. Fuse 2 A.'),
    chunk('a', 3, 'Error codes', 'E05 overpressure. E07 sensor fault.'),
    chunk('b', 2, 'Specifications', 'Output voltage 0 to 30 V. Fuse 5 A.'),
  ],
};
const index = new LibraryIndex(corpus);

describe('what the library mentions', () => {
  it('finds a model written whole, without its hyphen or spaced on one page, and in titles', () => {
    expect(index.mentions('hx-200')).toBe(true);
    expect(index.mentions('hx200')).toBe(true);
    expect(index.mentions('dp832')).toBe(true);
    expect(index.mentions('dp832a')).toBe(true);
    expect(index.mentions('e05')).toBe(true);
    expect(index.mentions('ft-65')).toBe(false);
    expect(index.mentions('dp821')).toBe(false);
  });
});

describe('the page ranker', () => {
  it('computes one value per feature for each candidate, within [0, 1]', () => {
    const candidates = candidateFeatures(index, { question: 'What fuse does the HX-200 need?' });
    expect(candidates.length).toBeGreaterThan(1);
    for (const c of candidates) {
      expect(c.features).toHaveLength(FEATURES.length);
      for (const v of c.features) expect(v >= 0 && v <= 1).toBe(true);
    }
  });

  it('keeps to the scope and finds OCR-misread words through trigram similarity', () => {
    expect(rankPages(index, { question: 'fuse', manualIds: ['b'] }).every((p) => p.manualId === 'b')).toBe(true);
    const fuzzy = candidateFeatures(index, { question: 'overpresure sensor' });
    const page3 = fuzzy.find((c) => index.pages[c.page].number === 3 && index.pages[c.page].manualId === 'a')!;
    expect(page3.features[FEATURES.indexOf('fuzzy_coverage')]).toBeGreaterThan(page3.features[FEATURES.indexOf('page_coverage')]);
  });

  it('learns weights that put the right page first on its training questions', () => {
    const questions = [
      { q: 'What fuse does the HX-200 need?', manual: 'a', page: 2 },
      { q: 'DP832 fuse rating', manual: 'b', page: 2 },
      { q: 'HX-200 error E07', manual: 'a', page: 3 },
    ];
    const rows = questions.map(({ q, manual, page }) => {
      const cands = candidateFeatures(index, { question: q });
      return {
        candidates: cands.map((c) => c.features),
        relevant: cands.map((c) => index.pages[c.page].manualId === manual && index.pages[c.page].number === page),
      };
    });
    const model = train(FEATURES, rows);
    for (const { q, manual, page } of questions) {
      const [best] = rankPages(index, { question: q }, model);
      expect({ q, manualId: best.manualId, page: best.page }).toEqual({ q, manualId: manual, page });
    }
  });
  it("tells a word naming one manual's device from a word every manual uses (topic terms)", () => {
    expect(index.termConcentration('hx-200', 'a')).toBe(1);
    expect(index.termConcentration('brill', 'b')).toBe(1);
    // "fuse" is in both manuals: it names neither device.
    expect(index.termConcentration('fuse', 'a')).toBe(0.5);
    expect(index.termConcentration('nowhere', 'a')).toBe(0);
  });

  it('keeps a page every leg ranks first at the top, whatever the model prefers', () => {
    const question = 'HX-200 error E07 sensor fault';
    // The store's text and page legs agree with page and passage BM25 on page 3 of manual a.
    const visual = [
      { manualId: 'a', page: 3, score: 0.8 },
      { manualId: 'a', page: 1, score: 0.2 },
    ];
    const agreeing = {
      question,
      visual,
      dense: [
        { manualId: 'a', page: 3, score: 0.9 },
        { manualId: 'a', page: 2, score: 0.4 },
      ],
    };
    // A model that would rather have any other page: it weighs the lexical scores and ranks negatively.
    const contrary = { features: [...FEATURES], weights: FEATURES.map((f) => (/bm25|coverage|^rr_/.test(f) ? -5 : 0)) };
    const first = (input: Parameters<typeof rankPages>[1]) => rankPages(index, input, contrary)[0];
    expect(first(agreeing)).toMatchObject({ manualId: 'a', page: 3 });
    // When one leg puts another page first, the legs disagree and the model decides.
    const disagreeing = {
      ...agreeing,
      dense: [
        { manualId: 'a', page: 2, score: 0.9 },
        { manualId: 'a', page: 3, score: 0.4 },
      ],
    };
    expect(first(disagreeing)).not.toMatchObject({ manualId: 'a', page: 3 });
  });

  it("ranks the same whatever scale the embedder's scores have: the legs count by rank", () => {
    const question = 'fuse rating of the supply';
    const dense = [
      { manualId: 'b', page: 2, score: 0.83 },
      { manualId: 'a', page: 2, score: 0.79 },
      { manualId: 'a', page: 3, score: 0.41 },
    ];
    const visual = [
      { manualId: 'a', page: 1, score: 12.5 },
      { manualId: 'b', page: 2, score: 11.0 },
    ];
    const order = (input: Parameters<typeof rankPages>[1]) => rankPages(index, input).map((p) => [p.manualId, p.page, p.score]);
    const before = order({ question, dense, visual });
    // Another embedder: scaled, shifted and bent, but each leg's order kept.
    const bend = (v: number) => 1000 * v ** 3 - 7;
    expect(
      order({ question, dense: dense.map((h) => ({ ...h, score: bend(h.score) })), visual: visual.map((h) => ({ ...h, score: Math.log(h.score) })) }),
    ).toEqual(before);
    // The order is what counts: reversing the text leg changes the features (the test can fail).
    const reversed = candidateFeatures(index, { question, dense: dense.map((h, i) => ({ ...h, score: i })), visual });
    const original = candidateFeatures(index, { question, dense, visual });
    expect(reversed.map((c) => [...c.features])).not.toEqual(original.map((c) => [...c.features]));
  });
});
