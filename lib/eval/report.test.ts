import { describe, expect, it } from 'vitest';
import { parseQa } from './qa';
import { bestStrategy, buildReport, formsTable, missesAt5, renderTable, renderText, type QuestionResult } from './report';
import { scoreQuestion } from './score';

const QA = parseQa(
  [
    '{"id": "q1", "manual": "a.pdf", "question": "Battery size?", "answer_keywords": ["400mAh"], "pages": [9], "kind": "fact"}',
    '{"id": "q2", "manual": "a.pdf", "question": "Test source mode?", "answer_keywords": ["zero span", "-13"], "pages": [7, 9], "kind": "multi-hop"}',
    '{"id": "q3", "manual": "b.pdf", "question": "Neopixel pin?", "answer_keywords": ["PA8"], "pages": [8], "kind": "visual"}',
    '{"id": "q4", "manual": "b.pdf", "question": "Which fuse at 220 V?", "answer_keywords": [], "pages": [], "kind": "unanswerable"}',
    '',
  ].join('\n'),
);
const IDS: Record<string, string> = { 'a.pdf': 'A', 'b.pdf': 'B' };
const nameOf = (id: string) => ({ A: 'a.pdf', B: 'b.pdf' })[id] ?? id;
const p = (manualId: string, page: number) => ({ manualId, page });

function score(id: string, pages: Array<{ manualId: string; page: number }>, ms: number, answer?: { text: string; declined?: boolean }) {
  const q = QA.find((x) => x.id === id)!;
  return scoreQuestion(q, { pages, ...(answer ? { answer: { text: answer.text, declined: answer.declined ?? false, path: [], status: 'done' } } : {}) }, { k: 5, manualId: IDS[q.manual], nameOf, ms });
}

const retrieval: QuestionResult[] = [
  score('q1', [p('A', 9), p('A', 1)], 10), // rank 1
  score('q2', [p('B', 7), p('A', 2), p('A', 7)], 20), // rank 3 (B p.7 is the wrong manual)
  score('q3', [p('B', 1), p('B', 2), p('B', 3), p('B', 4), p('B', 5), p('B', 8)], 30), // rank 6: a miss at k=5
  score('q4', [p('B', 2)], 40),
];
const agent: QuestionResult[] = [
  score('q1', [p('A', 9)], 100, { text: 'It has a 400 mAh battery [1].' }),
  score('q2', [p('A', 7)], 200, { text: 'Use zero span [1].' }),
  score('q3', [], 300, { text: 'The manuals do not say which pin drives the Neopixel.', declined: true }),
  score('q4', [], 400, { text: 'The manuals do not say anything about fuse 220.', declined: true }),
];

describe('eval report', () => {
  const report = buildReport({ hybrid: retrieval, agent }, { k: 5 });

  it('scores retrieval on answerable questions at the (manual, page) level', () => {
    const m = report.strategies.hybrid.overall;
    expect(m).toMatchObject({ n: 4, n_answerable: 3, n_unanswerable: 1, 'recall@1': 0.3333, 'recall@3': 0.6667, 'recall@5': 0.6667, errors: 0 });
    expect(m.mrr).toBeCloseTo((1 + 1 / 3 + 0) / 3, 4);
    // retrieval-only strategies have no answer metrics
    expect(m.keyword_hit_rate).toBeNull();
    expect(m.refusal_rate).toBeNull();
    expect(m.latency_ms).toEqual({ p50: 25, p95: 38.5 });
    expect(retrieval[2]).toMatchObject({ rank: null, rankAny: 6 });
    expect(retrieval[0].top).toEqual(['a.pdf p.9', 'a.pdf p.1']);
  });

  it('groups by kind and by manual; a rate that does not apply is null', () => {
    const s = report.strategies.hybrid;
    expect(Object.keys(s.by_kind)).toEqual(['fact', 'multi-hop', 'unanswerable', 'visual']);
    expect(s.by_kind.visual['recall@5']).toBe(0);
    expect(s.by_kind.unanswerable).toMatchObject({ n: 1, 'recall@1': null, mrr: null });
    expect(Object.keys(s.by_manual)).toEqual(['a.pdf', 'b.pdf']);
    expect(s.by_manual['a.pdf']).toMatchObject({ n: 2, 'recall@1': 0.5, 'recall@5': 1 });
  });

  it('scores the agent answers: keywords on answerable, refusals on unanswerable', () => {
    const m = report.strategies.agent.overall;
    expect(m.keyword_hit_rate).toBeCloseTo(1 / 3, 4); // q1 only (q2 misses "-13", q3 declined)
    expect(m.refusal_rate).toBe(1);
    expect(m.false_refusal_rate).toBeCloseTo(1 / 3, 4);
    expect(report.strategies.agent.by_kind.fact.refusal_rate).toBeNull(); // no unanswerable question there
    expect(agent[1].answer).toMatchObject({ keywordHit: false, missingKeywords: ['-13'] });
  });

  it('scores the three forms: stated precision and coverage, unanswerable stated, pages recall@3, by set', () => {
    const q = (id: string) => QA.find((x) => x.id === id)!;
    const withMode = (id: string, text: string, mode: 'answer' | 'pages' | 'not_covered', set: string, shown: Array<{ manualId: string; page: number }> = []) =>
      scoreQuestion(q(id), { pages: [], answer: { text, declined: mode !== 'answer', path: [], status: 'done', mode, shownPages: shown } }, { k: 5, manualId: IDS[q(id).manual], nameOf, ms: 1, set });
    const results = [
      withMode('q1', 'It has a 400 mAh battery [1].', 'answer', 'dev'), // stated, hit
      withMode('q2', 'Use zero span [1].', 'answer', 'dev'), // stated, misses "-13"
      withMode('q3', 'I could not find a stated value; these pages are the closest match.', 'pages', 'dev2', [p('B', 2), p('B', 8)]), // shown at rank 2
      withMode('q4', 'The fuse is 2 A [1].', 'answer', 'dev2'), // unanswerable, stated
    ];
    expect(results[2].answer).toMatchObject({ mode: 'pages', shown: ['b.pdf p.2', 'b.pdf p.8'], shownRank: 2 });
    const r = buildReport({ agent: results }, { k: 5 }).strategies.agent;
    expect(r.overall).toMatchObject({ stated_precision: 0.5, stated_coverage: 0.6667, unanswerable_stated: 1, 'pages_recall@3': 1 });
    expect(Object.keys(r.by_set)).toEqual(['dev', 'dev2']);
    expect(r.by_set.dev).toMatchObject({ n: 2, stated_precision: 0.5, stated_coverage: 1, unanswerable_stated: null, 'pages_recall@3': null });
    expect(r.by_set.dev2).toMatchObject({ stated_precision: null, stated_coverage: 0, unanswerable_stated: 1, 'pages_recall@3': 1 });
    expect(formsTable({ strategies: { agent: r } })).toContain('set:dev2');
  });

  it('averages ROUGE-L over the stated answers that have a reference answer', () => {
    const q = (id: string) => QA.find((x) => x.id === id)!;
    const withRef = (id: string, text: string, mode: 'answer' | 'pages', reference?: string) =>
      scoreQuestion(
        q(id),
        { pages: [], answer: { text, declined: false, path: [], status: 'done', mode } },
        { k: 5, manualId: IDS[q(id).manual], nameOf, ms: 1, ...(reference ? { reference } : {}) },
      );
    const results = [
      withRef('q1', 'It has a 400 mAh battery [1].', 'answer', 'a 400 mAh battery'), // LCS 4 of 6 and of 4: P 2/3, R 1, F1 0.8
      withRef('q2', 'Use zero span.', 'answer', 'zero span mode at −13 dBm'), // LCS 2 of 3 and of 6: P 2/3, R 1/3, F1 4/9
      withRef('q3', 'These pages are the closest.', 'pages', 'pin PA8'), // not stated: not scored
      withRef('q4', 'The fuse is 2 A.', 'answer', 'none'), // unanswerable: not scored
      withRef('q1', 'It has a 400 mAh battery.', 'answer'), // no reference: not scored
      withRef('q1', 'The manuals do not say how big the battery is.', 'answer', 'a 400 mAh battery'), // declined: not scored
    ];
    expect(results[0].answer?.rougeL?.precision).toBeCloseTo(2 / 3, 10);
    expect(results[0].answer?.rougeL?.recall).toBe(1);
    expect(results[0].answer?.rougeL?.f1).toBeCloseTo(0.8, 10);
    expect(results[2].answer?.rougeL).toBeUndefined();
    expect(results[3].answer?.rougeL).toBeUndefined();
    expect(results[5].answer?.rougeL).toBeUndefined();
    const m = buildReport({ agent: results }, { k: 5 }).strategies.agent.overall;
    expect(m.rouge_l).toEqual({ n: 2, precision: 0.6667, recall: 0.6667, f1: 0.6222 });
    expect(formsTable({ strategies: { agent: buildReport({ agent: results }, { k: 5 }).strategies.agent } })).toMatch(/ROUGE-L F1[\s\S]*0\.62 +2\n/);
    expect(buildReport({ hybrid: retrieval }, { k: 5 }).strategies.hybrid.overall.rouge_l).toBeUndefined();
  });

  it('has exactly the documented shape for machines', () => {
    const json = JSON.parse(JSON.stringify(report));
    for (const s of Object.values(json.strategies) as Array<Record<string, unknown>>) {
      expect(Object.keys(s).sort()).toEqual(['by_kind', 'by_manual', 'by_set', 'overall']);
      for (const m of [s.overall, ...Object.values(s.by_kind as object), ...Object.values(s.by_manual as object)] as Array<Record<string, unknown>>) {
        for (const key of ['n', 'recall@1', 'recall@3', 'recall@5', 'mrr', 'keyword_hit_rate', 'refusal_rate', 'latency_ms']) expect(m).toHaveProperty([key]);
        expect(Object.keys(m.latency_ms as object).sort()).toEqual(['p50', 'p95']);
      }
    }
  });

  it('adds recall@k for a k other than 1, 3, 5 and cuts ranks at k', () => {
    const q = QA[2];
    const r = scoreQuestion(q, { pages: [p('B', 1), p('B', 8)] }, { k: 1, manualId: 'B', nameOf, ms: 1 });
    expect(r).toMatchObject({ rank: null, rankAny: 2 });
    const k10 = buildReport({ x: [scoreQuestion(q, { pages: [p('B', 1), p('B', 8)] }, { k: 10, manualId: 'B', nameOf, ms: 1 })] }, { k: 10 });
    expect(k10.strategies.x.overall['recall@10']).toBe(1);
  });

  it('an errored question is a miss and stays out of the latency figures', () => {
    const failed = scoreQuestion(QA[0], null, { k: 5, manualId: 'A', nameOf, ms: 5000, error: 'boom' });
    const r = buildReport({ x: [failed, retrieval[0]] }, { k: 5 });
    expect(r.strategies.x.overall).toMatchObject({ errors: 1, 'recall@1': 0.5, latency_ms: { p50: 10, p95: 10 } });
  });

  it('names the best strategy and its misses, and renders tables', () => {
    expect(bestStrategy(report)).toBe('agent'); // MRR 2/3 against 4/9
    expect(missesAt5(retrieval)).toEqual([{ id: 'q3', kind: 'visual', manual: 'b.pdf', rank: 6, top: ['b.pdf p.1', 'b.pdf p.2', 'b.pdf p.3'] }]);
    const text = renderText(report);
    expect(text).toContain('hybrid: missed at R@5 (1): q3(rank 6)');
    expect(text).toContain('q4 [unanswerable] refused ✓');
    expect(renderTable([['a', 'b', 'n'], ['x', 'y', '10']], true)).toBe('| a | b |  n |\n| - | - | -: |\n| x | y | 10 |');
  });
});
