import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '@/lib/agent/events';
import { shownTools } from '@/lib/agent/contract';
import { defaultTools } from '@/tools';
import { plainNow, plainSteps, plainSummaryParts } from './plain-trail';

const hit = (page: number, ref: number) => ({
  ref,
  kind: 'chunk' as const,
  manualId: 'dp',
  manualTitle: 'DP800 User’s Guide',
  page,
  heading: 'Output',
  text: 'x',
  score: 0.4,
});
const EVENTS: AgentEvent[] = [
  { type: 'turn_start', question: 'q', manualIds: null, budget: 5, decider: 'rules', tools: shownTools(defaultTools), t: 0 },
  { type: 'skill', name: 'find-spec', score: 3, tools: ['hybrid_search'], description: 'd', t: 1 },
  {
    type: 'decision',
    iteration: 1,
    tool: 'hybrid_search',
    reason: 'skill "find-spec" guarantees hybrid_search',
    decider: 'skill',
    inputs: {},
    available: [],
    unavailable: [],
    t: 2,
  },
  { type: 'status', tool: 'hybrid_search', message: 'trying fast_vector_search', t: 3 },
  {
    type: 'result',
    tool: 'hybrid_search',
    name: 'hybrid',
    refs: [4, 5, 6],
    hits: [hit(12, 4), hit(14, 5), hit(12, 6)],
    metadata: { coverage: 0.39 },
    count: 3,
    time_ms: 120,
    t: 130,
  },
  { type: 'error', tool: 'colqwen_search', message: 'ECONNREFUSED', recoverable: true, t: 140 },
  { type: 'decision', iteration: 2, tool: 'text_response', reason: 'enough', decider: 'rules', inputs: {}, available: [], unavailable: [], t: 150 },
];

describe('the trail in plain words', () => {
  it('says when the answer drew on a manual still processing, and how far it was searchable', () => {
    const processing = [{ manualId: 'hx', title: 'Acme HX-200 Manual', searchablePages: 40, pageCount: 120, figureLabels: 'pending' as const }];
    const steps = plainSteps([...EVENTS, { type: 'response', text: 'a', sources: [], processing, t: 160 }]);
    expect(steps.at(-1)).toEqual({
      kind: 'problem',
      text: 'Acme HX-200 Manual is still processing (searchable through page 40 of 120 · figure labels pending): the answer may be incomplete.',
    });
  });

  it('sums a turn up in one line: what was searched, pages cited, time', () => {
    const { what, rest } = plainSummaryParts({
      events: EVENTS,
      sources: [
        { manualId: 'dp', page: 12 },
        { manualId: 'dp', page: 14 },
        { manualId: 'dp', page: 12 },
      ],
      status: 'done',
      metrics: { total_ms: 812 },
    });
    expect([what, ...rest].join(' · ')).toBe('Searched DP800 User’s Guide · cited 2 pages · 0.8 s · a step failed');
  });

  it('lists plain steps without tool ids, deciders, scores or reasons', () => {
    const steps = plainSteps(EVENTS);
    expect(steps.map((s) => s.text)).toEqual([
      'Searched the text and tables: found 3 matches on 2 pages',
      'The page image search did not work; tried another way.',
      'Wrote the answer',
    ]);
    expect(steps[0].pages).toEqual([{ manualTitle: 'DP800 User’s Guide', pages: [12, 14] }]);
    expect(JSON.stringify(steps)).not.toMatch(/hybrid_search|fast_vector|coverage|guarantees|skill|0\.4/);
    expect(plainNow(EVENTS.slice(0, 4))).toBe('Searching the text and tables…');
  });

  it('words the tools of a session stored before turns described their tools neutrally', () => {
    const stored = EVENTS.map((e) => (e.type === 'turn_start' ? { ...e, tools: undefined } : e));
    expect(plainSteps(stored).map((s) => s.text)).toEqual(['Looked further: found 3 matches on 2 pages', 'A step did not work; tried another way.']);
  });

  it('says first how a follow-up was read', () => {
    const followUp: AgentEvent[] = [
      { ...EVENTS[0], question: 'and output 3?', resolved: 'What is the current of output 3 on the HX-200?' } as AgentEvent,
      ...EVENTS.slice(1),
    ];
    expect(plainSteps(followUp)[0]).toEqual({ kind: 'question', text: 'Read as a follow-up: What is the current of output 3 on the HX-200?' });
  });
});
