import { historyOf } from '@/lib/agent';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '@/lib/agent/events';
import { eventsOfMessage, storedToMessages } from './protocol';
import {
  applyEvent,
  closestPageTarget,
  copyTextOf,
  emptyTurn,
  fellBackToExtractive,
  fromStored,
  hitTargets,
  markQuestionWords,
  shownAnswer,
  titleFromQuestion,
  withCurrentTitles,
} from './view';

const source = {
  ref: 2,
  kind: 'chunk' as const,
  manualId: 'm1',
  manualTitle: 'HX-200',
  page: 3,
  chunkId: 'm1:p3:c1',
  snippet: 'Supply voltage 24 V DC',
  bboxes: [{ x: 1, y: 2, w: 3, h: 4 }],
};

const EVENTS: AgentEvent[] = [
  { type: 'turn_start', question: 'Voltage?', manualIds: ['m1'], budget: 5, decider: 'rules', t: 0 },
  { type: 'decision', iteration: 0, tool: 'hybrid_search', reason: 'spec question', decider: 'skill', inputs: {}, available: [], unavailable: [], t: 3 },
  { type: 'status', tool: 'hybrid_search', message: 'Searching…', t: 4 },
  {
    type: 'result',
    tool: 'hybrid_search',
    name: 'hybrid',
    refs: [1, 2],
    hits: [
      { ref: 1, kind: 'chunk', manualId: 'm1', page: 5, chunkId: 'm1:p5:c0', heading: 'Type code', text: 'HX200', score: 0.5 },
      { ref: 2, kind: 'chunk', manualId: 'm1', page: 3, chunkId: 'm1:p3:c1', heading: 'Electrical data', text: 'Supply voltage 24 V DC', score: 0.9 },
    ],
    metadata: {},
    count: 2,
    time_ms: 40,
    t: 44,
  },
  { type: 'response_delta', delta: 'The supply', t: 50 },
  { type: 'response_delta', delta: ' is 24 V DC [2].', t: 51 },
  { type: 'response', text: 'The supply is 24 V DC [2].', sources: [source], t: 52 },
  { type: 'check', method: 'lexical', checked: 1, unsupported: [], t: 53 },
  {
    type: 'metrics',
    total_ms: 60,
    first_response_ms: 50,
    iterations: 2,
    tools: {},
    tokens: null,
    decisions: [],
    path: ['hybrid_search', 'text_response'],
    audit: [],
    t: 60,
  },
  { type: 'done', status: 'done', t: 60 },
];

describe('turn view reducer', () => {
  it('folds a full turn: trail events, streamed answer, sources, check, metrics and status', () => {
    let view = emptyTurn('id1', 'Voltage?');
    const seen: string[] = [];
    for (const e of EVENTS) {
      view = applyEvent(view, e);
      if (e.type === 'response_delta') seen.push(view.answer);
    }
    expect(seen).toEqual(['The supply', 'The supply is 24 V DC [2].']);
    expect(view).toMatchObject({ status: 'done', answer: 'The supply is 24 V DC [2].', sources: [source], checked: { method: 'lexical', count: 1 } });
    expect(view.metrics?.path).toEqual(['hybrid_search', 'text_response']);
    // Deltas are not kept as events: the stored answer holds the text.
    expect(view.events.map((e) => e.type)).toEqual(['turn_start', 'decision', 'status', 'result', 'response', 'check', 'metrics', 'done']);
  });

  it('a reset delta restarts the answer (extractive fallback) and is reported as degraded', () => {
    let view = emptyTurn('id', 'q');
    view = applyEvent(view, { type: 'response_delta', delta: 'LLM half', t: 1 });
    view = applyEvent(view, { type: 'response_delta', delta: 'From the passages', reset: true, t: 2 });
    expect(view.answer).toBe('From the passages');
    expect(fellBackToExtractive(view)).toBe(true);
    const viaResponse = applyEvent(emptyTurn('id', 'q'), { type: 'response', text: 'x', sources: [], method: 'extractive', fallback_reason: 'quota', t: 1 });
    expect(fellBackToExtractive(viaResponse)).toBe(true);
    // An extractive answer by design (no LLM configured) is not a fallback; status wording is not parsed.
    expect(fellBackToExtractive(applyEvent(emptyTurn('id', 'q'), { type: 'response', text: 'x', sources: [], method: 'extractive', t: 1 }))).toBe(false);
    expect(
      fellBackToExtractive(
        applyEvent(emptyTurn('id', 'q'), {
          type: 'status',
          tool: 'text_response',
          message: 'The language model failed; answering from the passages directly',
          t: 1,
        }),
      ),
    ).toBe(false);
  });

  it('restores exactly what was streamed from the stored events', () => {
    let live = emptyTurn('id1', 'Voltage?', 1234);
    for (const e of EVENTS) live = applyEvent(live, e);
    const { id, question, answer, events, status, createdAt } = live;
    const restored = fromStored(JSON.parse(JSON.stringify({ id, question, answer, events, status, createdAt, rating: 1 })));
    expect(restored).toEqual({ ...live, rating: 1 });
  });

  it('keeps a partial answer of a cancelled turn that only has deltas', () => {
    const restored = fromStored({ id: 'x', question: 'q', answer: 'Half', events: [EVENTS[0]], status: 'cancelled', createdAt: 0 });
    expect(restored).toMatchObject({ answer: 'Half', status: 'cancelled', rating: null });
  });

  it('shows [1]..[n]: a streaming answer numbered against the hits, the same numbers once it is answered', () => {
    let view = emptyTurn('id', 'q');
    for (const e of EVENTS.slice(0, 5)) view = applyEvent(view, e);
    expect(shownAnswer(view)).toMatchObject({ text: 'The supply', answered: false });
    view = applyEvent(view, EVENTS[5]);
    const live = shownAnswer(view);
    expect(live.text).toBe('The supply is 24 V DC [1].');
    expect(live.sources[0]).toMatchObject({ ref: 1, manualId: 'm1', page: 3, chunkId: 'm1:p3:c1', snippet: 'Supply voltage 24 V DC' });
    expect(live.sources[0].bboxes).toBeUndefined();
    // An answer stored before the loop numbered its citations is numbered the same way here.
    view = applyEvent(view, EVENTS[6]);
    const done = shownAnswer(view);
    expect(done).toMatchObject({ text: 'The supply is 24 V DC [1].', answered: true });
    expect(done.sources).toEqual([{ ...source, ref: 1 }]);
    // The trail's hits keep the agent's numbers.
    expect(hitTargets(view).get(1)?.page).toBe(5);
    expect(hitTargets(view).get(2)?.page).toBe(3);
  });

  it('an extractive answer is shown literally, an LLM answer as markdown', () => {
    const extractive = applyEvent(emptyTurn('id', 'q'), { type: 'response', text: 'Range 3~9 V [1].', sources: [], method: 'extractive', t: 1 });
    expect(extractive.literal).toBe(true);
    expect(applyEvent(emptyTurn('id', 'q'), { type: 'response', text: '**24 V** [1].', sources: [], method: 'llm', t: 1 }).literal).toBe(false);
  });

  it('builds history from finished turns only', () => {
    const history = historyOf([
      { question: 'a', answer: 'A', status: 'done' },
      { question: 'b', answer: 'half', status: 'cancelled' },
      { question: 'c', answer: 'C', status: 'done' },
    ]);
    expect(history).toEqual([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'A' },
      { role: 'user', content: 'c' },
      { role: 'assistant', content: 'C' },
    ]);
  });

  it('titles a session from its first question', () => {
    expect(titleFromQuestion('  What is the\nsupply voltage?  ')).toBe('What is the supply voltage?');
    const long = titleFromQuestion('Which connector does the pressure transducer plug into and what colour is its signal wire on the diagram?');
    expect(long.length).toBeLessThanOrEqual(61);
    expect(long).toMatch(/^Which connector .*[a-z]…$/);
    expect(titleFromQuestion('   ')).toBe('New chat');
  });

  describe('answer forms', () => {
    const pages = [
      {
        manualId: 'm1',
        manualTitle: 'HX-200 manual',
        page: 7,
        heading: 'Tightening torques',
        snippet: 'X1 terminal screws 0.6 Nm',
        previewUrl: '/manuals/m1?page=7&hl=m1%3Ap7%3Ac2',
      },
      { manualId: 'm1', manualTitle: 'HX-200 manual', page: 3, snippet: 'Supply voltage 24 V DC', previewUrl: '/manuals/m1?page=3' },
    ];
    const sentence = 'I could not find a stated value for the holding torque; these pages are the closest match.';
    const stored = (mode: 'pages' | 'not_covered'): AgentEvent[] => [
      { type: 'turn_start', question: 'Holding torque?', manualIds: null, budget: 5, decider: 'rules', t: 0 },
      { type: 'response', text: sentence, sources: [], declined: true, method: 'extractive', mode, pages, t: 5 },
      { type: 'done', status: 'done', t: 6 },
    ];

    it('keeps mode and pages, and a reload (stored events) restores the same view', () => {
      for (const mode of ['pages', 'not_covered'] as const) {
        let live = emptyTurn('id', 'Holding torque?', 1);
        for (const e of stored(mode)) live = applyEvent(live, e);
        expect(live).toMatchObject({ mode, pages, answer: sentence, declined: true });
        const restored = fromStored({ id: 'id', question: 'Holding torque?', answer: sentence, events: live.events, status: 'done', createdAt: 1 });
        expect(restored.mode).toBe(mode);
        expect(restored.pages).toEqual(pages);
        // Through the chat stream's message form too (what useChat restores from).
        const [, answer] = storedToMessages({ id: 'id', question: 'Holding torque?', answer: sentence, events: live.events, status: 'done', createdAt: 1 });
        let again = emptyTurn('id', 'Holding torque?', 1);
        for (const e of eventsOfMessage(answer)) again = applyEvent(again, e);
        expect(again).toMatchObject({ mode, pages, answer: sentence });
      }
    });

    it('reads turns stored before forms existed as answers, and shows at most 3 pages', () => {
      const old = applyEvent(emptyTurn('id', 'q'), { type: 'response', text: 'The manuals do not say: …', sources: [], declined: true, t: 1 });
      expect(old).toMatchObject({ mode: 'answer', pages: [] });
      const many = Array.from({ length: 5 }, (_, i) => ({ ...pages[1], page: i + 1 }));
      expect(applyEvent(emptyTurn('id', 'q'), { type: 'response', text: 'x', sources: [], mode: 'pages', pages: many, t: 1 }).pages).toHaveLength(3);
    });

    it('a card opens the page its link names, with the linked passage highlighted', () => {
      expect(closestPageTarget(pages[0], 0)).toEqual({
        ref: 1,
        manualId: 'm1',
        manualTitle: 'HX-200 manual',
        page: 7,
        chunkId: 'm1:p7:c2',
        heading: 'Tightening torques',
        snippet: 'X1 terminal screws 0.6 Nm',
      });
      expect(closestPageTarget(pages[1], 1)).toEqual({ ref: 2, manualId: 'm1', manualTitle: 'HX-200 manual', page: 3, snippet: 'Supply voltage 24 V DC' });
    });

    it('renamed manuals retitle the cards; the copy lists the pages after the sentence', () => {
      let view = emptyTurn('id', 'q');
      for (const e of stored('pages')) view = applyEvent(view, e);
      const renamed = withCurrentTitles(view, new Map([['m1', 'Press controller']]));
      expect(renamed.pages.map((p) => p.manualTitle)).toEqual(['Press controller', 'Press controller']);
      expect(fromStored({ ...renamed, answer: sentence }).pages[0].manualTitle).toBe('Press controller');
      expect(copyTextOf(view, sentence)).toBe(
        [
          sentence,
          '',
          'Closest pages:',
          '- HX-200 manual, page 7 — Tightening torques: "X1 terminal screws 0.6 Nm"',
          '- HX-200 manual, page 3: "Supply voltage 24 V DC"',
        ].join('\n'),
      );
      expect(copyTextOf({ mode: 'answer', pages: [] }, 'The supply is 24 V DC [1].')).toBe('The supply is 24 V DC [1].');
    });

    it('marks the question words in a snippet by stem, never stop words', () => {
      const runs = markQuestionWords('Tighten the X1 terminal screws to 0.6 Nm (torques per table).', 'What torque for the terminal screw?');
      expect(runs.filter((r) => r.mark).map((r) => r.text)).toEqual(['terminal', 'screws', 'torques']);
      expect(runs.map((r) => r.text).join('')).toBe('Tighten the X1 terminal screws to 0.6 Nm (torques per table).');
    });
  });
});

describe('the region a stated answer reads', () => {
  const withValue = {
    ...source,
    bboxes: [
      { x: 10, y: 20, w: 200, h: 30 },
      { x: 120, y: 24, w: 30, h: 10, value: '24 V DC' },
    ],
  };
  const evidence = {
    coverage: 1,
    quantityMissing: false,
    structure: 'cell',
    regions: [{ manualId: 'm1', page: 3, bbox: [10, 20, 210, 50] as [number, number, number, number], kind: 'table' }],
  };

  it('is the evidence region on the first source’s page, with the source’s value box', () => {
    const turn = applyEvent(emptyTurn('id', 'q'), {
      type: 'response',
      text: 'Supply · Voltage: 24 V DC [2].',
      sources: [withValue],
      mode: 'answer',
      evidence,
      t: 1,
    });
    expect(turn.region).toEqual({
      ref: 2,
      manualId: 'm1',
      page: 3,
      kind: 'table',
      bbox: { x: 10, y: 20, w: 200, h: 30 },
      value: { x: 120, y: 24, w: 30, h: 10, value: '24 V DC' },
    });
  });

  it('frames a quantity with its unit before a label or code the quote also holds', () => {
    const both = {
      ...source,
      bboxes: [
        { x: 1, y: 2, w: 3, h: 4, value: 'X1' },
        { x: 5, y: 6, w: 7, h: 8, value: '0.6 Nm' },
      ],
    };
    const turn = applyEvent(emptyTurn('id', 'q'), { type: 'response', text: 'X1 screws: 0.6 Nm [2].', sources: [both], mode: 'answer', evidence, t: 1 });
    expect(turn.region?.value?.value).toBe('0.6 Nm');
  });

  it('shows closest pages with the scanned unit to look at, on the source of its page', () => {
    const other = { ...withValue, ref: 5, page: 9 };
    const turn = applyEvent(emptyTurn('id', 'q'), {
      type: 'response',
      text: 'The answer may be in this table…',
      sources: [other, withValue],
      mode: 'pages',
      declined: true,
      evidence,
      t: 1,
    });
    expect(turn.region).toMatchObject({ ref: 2, page: 3, kind: 'table' });
  });

  it('is absent for the other forms, for closest pages without a unit to look at, and for regions on other pages', () => {
    const { structure: _s, ...plain } = evidence;
    expect(applyEvent(emptyTurn('id', 'q'), { type: 'response', text: 'x', sources: [withValue], mode: 'pages', evidence: plain, t: 1 }).region).toBeNull();
    expect(applyEvent(emptyTurn('id', 'q'), { type: 'response', text: 'x', sources: [withValue], mode: 'not_covered', evidence, t: 1 }).region).toBeNull();
    const elsewhere = { ...evidence, regions: [{ ...evidence.regions[0], page: 4 }] };
    expect(
      applyEvent(emptyTurn('id', 'q'), { type: 'response', text: 'x', sources: [withValue], mode: 'answer', evidence: elsewhere, t: 1 }).region,
    ).toBeNull();
  });
});
