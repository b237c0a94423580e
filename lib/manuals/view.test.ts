import { describe, expect, it } from 'vitest';
import { isBusy, overallPercent, stageLabel, type ManualView } from './view';

type P = Pick<ManualView, 'status' | 'progressDone' | 'progressTotal' | 'pageCount' | 'ocrPages' | 'queuePosition'>;
const at = (p: Partial<P>): P => ({ status: 'parsing', progressDone: 0, progressTotal: 0, pageCount: 30, ocrPages: 0, queuePosition: null, ...p });

describe('ingest progress as the library shows it', () => {
  it('moves with the pages read, weighted by their cost, and never jumps back at a stage change', () => {
    // A fully scanned 30-page manual: reading (with OCR) is nearly all of the work. Parsing counts
    // pages finished (read and recognised): four recognitions are still running behind the pass,
    // and the `ocr` stage counts them down from there.
    const scanned = [
      at({ progressDone: 3, progressTotal: 30, ocrPages: 7 }),
      at({ progressDone: 15, progressTotal: 30, ocrPages: 19 }),
      at({ progressDone: 26, progressTotal: 30, ocrPages: 30 }),
      at({ status: 'ocr', progressDone: 26, progressTotal: 30, ocrPages: 30 }),
      at({ status: 'ocr', progressDone: 28, progressTotal: 30, ocrPages: 30 }),
      at({ status: 'ocr', progressDone: 30, progressTotal: 30, ocrPages: 30 }),
      at({ status: 'rendering', progressDone: 0, progressTotal: 30, ocrPages: 30 }),
      at({ status: 'rendering', progressDone: 10, progressTotal: 30, ocrPages: 30 }),
      at({ status: 'embedding', progressDone: 40, progressTotal: 80, ocrPages: 30 }),
      at({ status: 'indexing', progressDone: 30, progressTotal: 32, ocrPages: 30 }),
    ].map(overallPercent);
    expect(scanned[1]).toBeGreaterThanOrEqual(40);
    expect(scanned[1]).toBeLessThanOrEqual(50);
    for (let i = 1; i < scanned.length; i++) expect(scanned[i]).toBeGreaterThanOrEqual(scanned[i - 1]);
    // A text manual with figures: the wait for the figures' OCR goes on from where the pass stood.
    const figures = [
      at({ progressDone: 29, progressTotal: 30 }),
      at({ status: 'ocr', progressDone: 3, progressTotal: 4 }),
      at({ status: 'ocr', progressDone: 4, progressTotal: 4 }),
      // The text pages' previews are drawn now, one tick a page.
      ...[0, 5, 10, 15, 20, 25, 30].map((n) => at({ status: 'rendering', progressDone: n, progressTotal: 30 })),
      at({ status: 'embedding', progressDone: 0, progressTotal: 80 }),
      at({ status: 'indexing', progressDone: 32, progressTotal: 32 }),
    ].map(overallPercent);
    for (let i = 1; i < figures.length; i++) {
      expect(figures[i]).toBeGreaterThanOrEqual(figures[i - 1]);
      expect(figures[i] - figures[i - 1]).toBeLessThanOrEqual(15);
    }
    expect(scanned.at(-1)).toBeLessThan(100);
    // Reading a text manual is the cheap part; halfway through drawing its previews is past half.
    expect(overallPercent(at({ progressDone: 30, progressTotal: 30 }))).toBeLessThan(35);
    expect(overallPercent(at({ status: 'rendering', progressDone: 15, progressTotal: 30 }))).toBeGreaterThan(50);
    expect(overallPercent(at({ status: 'ready' }))).toBe(100);
  });

  it('says what is happening in words', () => {
    expect(stageLabel(at({ status: 'queued', queuePosition: 2 }))).toBe('Waiting: 2nd in line');
    expect(stageLabel(at({ status: 'queued', queuePosition: 1 }))).toBe('Waiting to start');
    expect(stageLabel(at({ ocrPages: 12 }))).toBe('Reading pages (12 scanned, with OCR)');
    expect(stageLabel(at({ status: 'ocr', progressDone: 1, progressTotal: 3, ocrPages: 2 }))).toBe('Reading scanned pages (OCR): 2 left');
    // Figures of text pages are read by OCR too, but they are no scanned page.
    expect(stageLabel(at({ status: 'ocr', progressDone: 1, progressTotal: 3 }))).toBe('Reading figure labels (OCR): 2 left');
    expect(stageLabel(at({ progressDone: 5, progressTotal: 30 }))).toBe('Reading pages');
  });
});

describe('a ready manual being re-embedded for a new embedder', () => {
  it('stays ready but shows its embedding and indexing progress', () => {
    const steps = [
      { status: 'ready' as const, reembedStage: 'embedding' as const, progressDone: 0, progressTotal: 40 },
      { status: 'ready' as const, reembedStage: 'embedding' as const, progressDone: 40, progressTotal: 40 },
      { status: 'ready' as const, reembedStage: 'indexing' as const, progressDone: 5, progressTotal: 11 },
      { status: 'ready' as const, reembedStage: 'indexing' as const, progressDone: 11, progressTotal: 11 },
    ];
    const pcts = steps.map(overallPercent);
    expect(pcts[0]).toBe(0);
    for (let i = 1; i < pcts.length; i++) expect(pcts[i]).toBeGreaterThanOrEqual(pcts[i - 1]);
    expect(pcts.at(-1)).toBe(99);
    expect(stageLabel(at(steps[2]))).toBe('Searchable; re-embedding for a new embedder: saving the search index');
    expect(steps.every(isBusy)).toBe(true);
    expect(isBusy({ status: 'ready', reembedStage: null })).toBe(false);
  });
});
