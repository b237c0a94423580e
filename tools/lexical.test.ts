import { describe, expect, it } from 'vitest';
import type { ChunkHit } from '@/lib/providers/types';
import { ManualLexicon, rankPagesLexically } from './lexical';

const hit = (manualId: string, page: number, text: string, heading = ''): ChunkHit => ({
  id: `${manualId}:${page}:${text.length}`,
  manualId,
  page,
  heading,
  text,
  ocr: false,
  bboxes: [],
  score: 0,
});

// A board manual whose name is on every page, and a pump manual that shares the vocabulary.
const BOARD = new ManualLexicon('board', [
  hit('board', 1, 'SKR MINI E3 V2.0 Operation Manual of the Motherboard'),
  hit('board', 2, 'SKR MINI E3 V2.0 features: MP1584EN power chip, maximum output current 2.5A', 'Introduction > Features'),
  hit('board', 3, 'SKR MINI E3 V2.0 wiring of the fan and heater outputs'),
  hit('board', 4, 'SKR MINI E3 V2.0 D10 green light: FAN0 status indicator'),
  hit('board', 5, 'SKR MINI E3 V2.0 firmware update from the SD card'),
]);
const PUMP = new ManualLexicon('pump', [
  hit('pump', 1, 'PX-200 pump: motor output current 6.8 A at full load', 'Specifications'),
  hit('pump', 2, 'Clean the inlet strainer every 500 hours'),
]);

describe('lexical page ranking', () => {
  it('counts terms per manual page and chunk', () => {
    expect(BOARD.pageCount).toBe(5);
    expect(BOARD.termPages.get('skr')).toBe(5);
    expect(BOARD.pageShare('skr')).toBeCloseTo(5 / 7, 10);
    expect(BOARD.chunkDf.get('mp1584en')).toBe(1);
  });

  it('the device name picks the manual, the other words pick the page (not the title page)', () => {
    const r = rankPagesLexically('Which power chip supplies the SKR Mini E3 V2.0, and how much output current?', [BOARD, PUMP]);
    expect(r.manuals.get('board')).toBe(1);
    expect(r.manuals.get('pump')!).toBeLessThan(1);
    expect(r.pages[0]).toMatchObject({ manualId: 'board', page: 2 });
    expect(r.pages[0].chunks[0].hit.text).toContain('MP1584EN');
    // the device name is on every page of the board manual: it is the topic there, not a detail
    expect(r.topicTerms.get('board')).toEqual(expect.arrayContaining(['skr', 'mini', 'e3']));
    expect(r.topicTerms.get('board')).not.toContain('chip');
  });

  it('matches the section heading, codes, and units written with or without a space', () => {
    expect(rankPagesLexically('pump specifications', [BOARD, PUMP]).pages[0]).toMatchObject({ manualId: 'pump', page: 1 });
    expect(rankPagesLexically('Which LED shows FAN0?', [BOARD, PUMP]).pages[0]).toMatchObject({ manualId: 'board', page: 4 });
    const amps = rankPagesLexically('full-load current 6.8A of the PX-200', [BOARD, PUMP]);
    expect(amps.pages[0]).toMatchObject({ manualId: 'pump', page: 1 });
  });

  it('returns nothing for a question no manual has a word of', () => {
    expect(rankPagesLexically('warranty?', [BOARD, PUMP]).pages).toEqual([]);
    expect(rankPagesLexically('', [BOARD]).pages).toEqual([]);
  });
});
