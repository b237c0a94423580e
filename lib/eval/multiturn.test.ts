/**
 * Multi-turn sets: questions with a session and a turn are parsed, ordered and asked as one chat,
 * so a follow-up that names no device searches the device the first question named.
 */
import { describe, expect, it } from 'vitest';
import { chunk, offlineDeps, resultOf, scriptedTool } from '@/lib/agent/testing/turn';
import { LibraryIndex } from '@/lib/ranking/library-index';
import { DEVICE_CORPUS } from '@/lib/ranking/testing/devices';
import { textResponse } from '@/tools/text-response';
import { BaselineIndex } from './baseline';
import type { PageRef } from './metrics';
import { inAskingOrder, parseQa } from './qa';
import { buildReport } from './report';
import { scoreQuestion } from './score';
import { STRATEGY_FNS, type EvalChat, type StrategyContext } from './strategies';

const line = (o: Record<string, unknown>) => JSON.stringify({ manual: 'acme-hx200-manual.pdf', answer_keywords: ['2 A'], pages: [2], kind: 'fact', ...o });

describe('multi-turn questions', () => {
  it('parse a session and a turn, and refuse a turn without a session', () => {
    const [q] = parseQa(line({ id: 'a1', question: 'What fuse does the HX-200 take?', session: 's1', turn: 1 }));
    expect(q).toMatchObject({ session: 's1', turn: 1 });
    expect(() => parseQa(line({ id: 'a1', question: 'And the supply?', turn: 2 }))).toThrow(/turn without a session/);
    expect(() => parseQa(line({ id: 'a1', question: 'And the supply?', session: 's1', turn: 0 }))).toThrow(/turn/);
  });

  it('are asked session by session in turn order, at the first question’s place', () => {
    const qs = parseQa(
      [
        line({ id: 'x', question: 'A lone question about the DP832?' }),
        line({ id: 's1-2', question: 'And its supply voltage?', session: 's1', turn: 2 }),
        line({ id: 'y', question: 'Another lone question?' }),
        line({ id: 's1-1', question: 'Which fuse does the HX-200 take?', session: 's1', turn: 1 }),
      ].join('\n'),
    );
    expect(inAskingOrder(qs).map((q) => q.id)).toEqual(['x', 's1-1', 's1-2', 'y']);
    const twice = parseQa([line({ id: 'a', question: 'One?', session: 's', turn: 1 }), line({ id: 'b', question: 'Two?', session: 's', turn: 1 })].join('\n'));
    expect(() => inAskingOrder(twice)).toThrow(/turn 1 is given twice/);
  });
});

describe('a session asked as one chat', () => {
  const index = new LibraryIndex(DEVICE_CORPUS);
  // A search that honours the turn's filter and first manuals (as hybrid_search does) and otherwise
  // puts the HX-300's page first (a wrong device).
  const order = ['hx300', 'hx200', 'dp832', 'vna10', 'vna20', 'qx40'];
  const search = () =>
    scriptedTool({
      name: 'hybrid_search',
      run: (_call, t) => {
        const first = (id: string) => (t.preferManualIds?.includes(id) ? 0 : 1);
        const passages = [...order]
          .sort((a, b) => first(a) - first(b))
          .filter((id) => !t.manualIds?.length || t.manualIds.includes(id))
          .map((id) => chunk(DEVICE_CORPUS.chunks.find((c) => c.manualId === id)!.text, { manualId: id, page: 2, heading: 'Specifications' }));
        return [resultOf(passages)];
      },
    });
  const ctx = (): StrategyContext => ({
    store: undefined as never,
    embedder: undefined as never,
    multiVector: undefined as never,
    alpha: 0.5,
    baseline: new BaselineIndex<PageRef>([]),
    manualIds: index.manuals.map((m) => m.id),
    agentDeps: { ...offlineDeps, libraryIndex: async () => index },
    agentTools: [search(), textResponse],
    agentOptions: { skills: [], decider: 'rules' },
  });
  const [first, followUp] = parseQa(
    [
      line({ id: 't1', question: 'What fuse does the Acme HX-200 take?', session: 's', turn: 1 }),
      line({ id: 't2', question: 'And what supply voltage does it need?', session: 's', turn: 2, answer_keywords: ['24 V'] }),
    ].join('\n'),
  );
  const score = (q: typeof first, out: Awaited<ReturnType<typeof STRATEGY_FNS.agent>>, followUpTurn: boolean) =>
    scoreQuestion(q, out, { k: 5, manualId: 'hx200', nameOf: (id) => id, ms: 1, namesDevice: !followUpTurn, followUp: followUpTurn });

  it('keeps the device the first turn named for a follow-up that names none', async () => {
    const chat: EvalChat = { turns: [], device: null };
    const c = ctx();
    const one = await STRATEGY_FNS.agent(first.question, 5, c, chat);
    expect(chat.device).toMatchObject({ manualIds: ['hx200'], device: 'Acme HX-200', turn: 1 });
    const two = await STRATEGY_FNS.agent(followUp.question, 5, c, chat);
    expect(two.pages[0].manualId).toBe('hx200');
    // Searched alone under the 'scope' policy: only its pages.
    const scopedChat: EvalChat = { turns: [], device: null };
    const scoping = { ...c, policies: { namedDevice: 'scope' as const } };
    await STRATEGY_FNS.agent(first.question, 5, scoping, scopedChat);
    const alone = await STRATEGY_FNS.agent(followUp.question, 5, scoping, scopedChat);
    expect(alone.pages.every((p) => p.manualId === 'hx200')).toBe(true);
    expect(chat.turns.map((t) => t.question)).toEqual([first.question, followUp.question]);

    const results = [score(first, one, false), score(followUp, two, true)];
    expect(results[1]).toMatchObject({ rank: 1, wrongDevice: false, followUp: true });
    const report = buildReport({ agent: results }, { k: 5 });
    expect(report.strategies.agent.overall).toMatchObject({ 'wrong_device@1': 0, named: { n: 1, wrong_device: 0 }, followups_unnamed: { n: 1, wrong_device: 0, 'recall@1': 1 } });
  });

  it('without the chat, the same follow-up gets another device’s page first', async () => {
    const alone = await STRATEGY_FNS.agent(followUp.question, 5, ctx());
    const result = score(followUp, alone, true);
    expect(result.wrongDevice).toBe(true);
    expect(buildReport({ agent: [result] }, { k: 5 }).strategies.agent.overall).toMatchObject({ 'wrong_device@1': 1, followups_unnamed: { n: 1, wrong_device: 1 } });
  });
});
