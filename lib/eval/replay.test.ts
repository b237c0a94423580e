/**
 * Recorded-LLM mode: a cassette recorded against a MockLanguageModelV3 scores the same under
 * --replay, with no provider configured and no model call (the mock would fail the test).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunk, jsonResult, offlineDeps, promptText, resultOf, scriptedTool, streamOf } from '@/lib/agent/testing/turn';
import { createLlmClient } from '@/lib/providers/llm/client';
import { readCassette } from '@/lib/providers/llm/cassette';
import { textResponse } from '@/tools/text-response';
import { BaselineIndex } from './baseline';
import { agentSetup, applyLlmMode, metaFileFor } from './llm-mode';
import type { PageRef } from './metrics';
import { parseQa } from './qa';
import { scoreQuestion } from './score';
import { STRATEGY_FNS, type StrategyContext } from './strategies';

const [QUESTION, UNANSWERABLE] = parseQa(
  [
    '{"id": "t1", "manual": "pump.pdf", "question": "What current does the PX-200 motor draw at full load?", "answer_keywords": ["6.8 A"], "pages": [4], "kind": "fact"}',
    '{"id": "t2", "manual": "pump.pdf", "question": "Which fuse does the PX-200 need on 110 V?", "answer_keywords": [], "pages": [], "kind": "unanswerable"}',
  ].join('\n'),
);

const PASSAGES = [
  chunk('The pump motor is rated at 230 V and draws 6.8 A at full load.', { manualId: 'pump', page: 4, heading: 'Specifications' }),
  chunk('Clean the inlet strainer every 500 hours.', { manualId: 'pump', page: 9, heading: 'Maintenance' }),
];
const tools = () => [scriptedTool({ name: 'hybrid_search', run: () => [resultOf(PASSAGES)] }), textResponse];

/** The "live" model: picks hybrid_search, then answers; verdicts for the answer check. */
function liveModel() {
  let decisions = 0;
  return new MockLanguageModelV3({
    modelId: 'gemini-2.5-flash',
    doGenerate: async (options) => {
      const prompt = promptText(options);
      if (prompt.includes('Answer sentences')) return jsonResult({ verdicts: [{ index: 0, supported: true }] });
      return decisions++ % 2 === 0
        ? jsonResult({ tool: 'hybrid_search', reason: 'specs', inputs: { query: 'PX-200 motor full load current' } })
        : jsonResult({ tool: 'text_response', reason: 'found it' });
    },
    doStream: async (options) =>
      promptText(options).includes('110 V')
        ? streamOf('The manuals do not say which fuse the PX-200 needs on 110 V.')
        : streamOf('The motor draws 6.8 A at full load [1].'),
  });
}

function context(over: Partial<StrategyContext>): StrategyContext {
  return {
    store: undefined as never,
    embedder: undefined as never,
    multiVector: undefined as never,
    alpha: 0.5,
    baseline: new BaselineIndex<PageRef>([]),
    manualIds: ['pump'],
    ...over,
  };
}

const score = (q: typeof QUESTION, out: Awaited<ReturnType<typeof STRATEGY_FNS.agent>>) =>
  scoreQuestion(q, out, { k: 5, manualId: 'pump', nameOf: (id) => `${id}.pdf`, ms: 1 });

let dir: string;
let saved: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-eval-replay-'));
  saved = { ...process.env };
});
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('eval --replay', () => {
  it('replays a recorded agent run with no provider configured, scoring the same', async () => {
    const cassette = path.join(dir, 'agent.jsonl');
    const live = liveModel();
    const recording = createLlmClient(live, { provider: 'gemini', record: cassette });
    const recordCtx = context({ agentDeps: { ...offlineDeps, llm: recording }, agentTools: tools(), agentOptions: { skills: [], decider: 'llm' } });
    const recorded = [await STRATEGY_FNS.agent(QUESTION.question, 5, recordCtx), await STRATEGY_FNS.agent(UNANSWERABLE.question, 5, recordCtx)];
    const liveCalls = live.doGenerateCalls.length + live.doStreamCalls.length;
    expect(liveCalls).toBeGreaterThanOrEqual(4);
    expect(readCassette(cassette).length).toBe(liveCalls);
    expect(recorded[0].answer?.path).toEqual(['hybrid_search', 'text_response']);

    // What `npm run eval -- --replay FILE` does: no provider in the environment at all.
    for (const k of ['GOOGLE_GENERATIVE_AI_API_KEY', 'OPENAI_COMPATIBLE_BASE_URL', 'OPENAI_COMPATIBLE_MODEL', 'MC_LLM_RECORD']) delete process.env[k];
    process.env.DECIDER = 'llm'; // would be a configuration error without a provider; replay handles it
    applyLlmMode({ kind: 'replay', file: cassette });
    expect(process.env).toMatchObject({ MC_LLM_REPLAY: cassette, LLM_PROVIDER: 'none', VLM_PROVIDER: 'none' });
    expect(process.env.DECIDER).toBeUndefined();
    const setup = agentSetup({ kind: 'replay', file: cassette });
    expect(setup.describe).toMatchObject({ mode: 'replay', decider: 'llm', llm: 'replay of gemini/gemini-2.5-flash', vlm: null });
    expect(setup.deps.llm?.modelId).toBe('gemini-2.5-flash');

    const replayCtx = context({
      agentDeps: { ...offlineDeps, ...setup.deps },
      agentTools: tools(), agentOptions: { ...setup.options, skills: [] },
    });
    const replayed = [await STRATEGY_FNS.agent(QUESTION.question, 5, replayCtx), await STRATEGY_FNS.agent(UNANSWERABLE.question, 5, replayCtx)];
    expect(live.doGenerateCalls.length + live.doStreamCalls.length).toBe(liveCalls); // nothing reached the model
    expect(replayed).toEqual(recorded);

    const [answered, refused] = [score(QUESTION, replayed[0]), score(UNANSWERABLE, replayed[1])];
    expect(answered).toMatchObject({ rank: 1, answer: { text: 'The motor draws 6.8 A at full load [1].', keywordHit: true } });
    expect(refused).toMatchObject({ answer: { refused: true, declined: true, madeUp: [] } });
  });

  it('a question that is not in the recording fails instead of calling out', async () => {
    const cassette = path.join(dir, 'agent.jsonl');
    const live = liveModel();
    const recordCtx = context({ agentDeps: { ...offlineDeps, llm: createLlmClient(live, { provider: 'gemini', record: cassette }) }, agentTools: tools(), agentOptions: { skills: [], decider: 'llm' } });
    await STRATEGY_FNS.agent(QUESTION.question, 5, recordCtx);
    const calls = live.doGenerateCalls.length + live.doStreamCalls.length;

    applyLlmMode({ kind: 'replay', file: cassette });
    const setup = agentSetup({ kind: 'replay', file: cassette });
    const out = await STRATEGY_FNS.agent('A question nobody recorded?', 5, context({ agentDeps: { ...offlineDeps, ...setup.deps }, agentTools: tools(), agentOptions: { ...setup.options, skills: [] } }));
    // The decider's replay miss falls back to the rules; the answer's miss falls back to extractive text.
    expect(out.answer?.path.at(-1)).toBe('text_response');
    expect(live.doGenerateCalls.length + live.doStreamCalls.length).toBe(calls);
  });

  it('restores the roles and decider the recording was made with (FILE.meta.json)', () => {
    const cassette = path.join(dir, 'meta.jsonl');
    fs.writeFileSync(cassette, '');
    fs.writeFileSync(metaFileFor(cassette), JSON.stringify({ llm: { provider: 'gemini', modelId: 'g' }, vlm: { provider: 'gemini', modelId: 'gv' }, decider: 'rules' }));
    applyLlmMode({ kind: 'replay', file: cassette });
    const setup = agentSetup({ kind: 'replay', file: cassette });
    expect(setup.options.decider).toBe('rules');
    expect(setup.deps.llm).toMatchObject({ modelId: 'g', provider: 'gemini', vision: false });
    expect(setup.deps.vlm).toMatchObject({ modelId: 'gv', provider: 'gemini', vision: true });
    fs.rmSync(metaFileFor(cassette));
    expect(() => agentSetup({ kind: 'replay', file: cassette })).toThrow(/has no LLM calls/);
  });
});
