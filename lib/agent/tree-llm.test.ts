/** The loop with language models: every model here is MockLanguageModelV3 (ai/test). */
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { summarize } from '@/tools/summarize';
import { textResponse } from '@/tools/text-response';
import { agentServices } from '@/lib/services/agent-services';
import { getProviderConfig } from '@/lib/providers/roles';
import { restoreEnv, snapshotEnv } from '@/test/env';
import { visualInterpretation } from '@/tools/visual-interpretation';
import type { LlmClient } from '@/lib/providers/types';
import { chunk, eventsOf, jsonResult, mockLlm, offlineDeps, page, promptText, resultOf, scriptedTool, streamOf, textResult } from './testing/turn';
import { collectTurn } from './testing/turn';

const PUMP = [
  chunk('The pump motor is rated at 230 V and draws 6.8 A at full load.', { heading: 'Specifications', page: 4 }),
  chunk('If the breaker trips, check the motor winding resistance and the capacitor.', { heading: 'Troubleshooting', page: 12 }),
];
const search = (name: string, objects = PUMP) => scriptedTool({ name, run: () => [resultOf(objects)] });

/**
 * A rules-decided turn over the pump passages whose LLM writes `answers` in turn (the last one
 * again after that) and whose sentence check finds every sentence supported: the value lock alone judges.
 */
async function answeredBy(question: string, answers: string[]) {
  let call = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => jsonResult({ verdicts: [{ index: 0, supported: true }] }),
    doStream: async () => streamOf(answers[Math.min(call++, answers.length - 1)]),
  });
  const llm: LlmClient = { provider: 'test', modelId: 'mock', model, vision: false };
  const events = await collectTurn({
    question,
    services: agentServices({ ...offlineDeps, llm }),
    tools: [search('hybrid_search'), textResponse],
    options: { skills: [], decider: 'rules' },
  });
  return { model, events };
}

describe('runTurn with an LLM', () => {
  it('LLM decider: restricted to available tools, retries an invalid pick, streams a cited answer, flags an unsupported sentence', async () => {
    const decisions = [
      jsonResult({ tool: 'web_search', reason: 'search the web' }), // not an available tool
      jsonResult({ tool: 'hybrid_search', reason: 'open troubleshooting question', inputs: { query: 'breaker trips pump' } }),
      jsonResult({ tool: 'text_response', reason: 'evidence found' }),
    ];
    let d = 0;
    let streams = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const prompt = promptText(options);
        if (prompt.includes('Answer sentences')) {
          return jsonResult({
            verdicts: [
              { index: 0, supported: true },
              { index: 1, supported: false, reason: 'no source says to change the breaker' },
            ],
          });
        }
        return decisions[Math.min(d++, decisions.length - 1)];
      },
      // The first answer invents 40 A; the rewrite drops it but keeps a claim the judge rejects.
      doStream: async () =>
        streamOf(
          streams++ === 0
            ? 'The motor draws 6.8 A at full load [1]. Replace the breaker with a 40 A type [2].'
            : 'The motor draws 6.8 A at full load [1]. Replace the breaker with a larger type [2].',
        ),
    });
    const llm: LlmClient = { provider: 'test', modelId: 'mock', model, vision: false };
    const events = await collectTurn({
      question: 'The pump keeps tripping the breaker during long runs, what should I look at?',
      services: agentServices({ ...offlineDeps, llm }),
      tools: [search('fast_vector_search'), search('hybrid_search'), textResponse],
      options: { skills: [] },
    });
    expect(eventsOf(events, 'turn_start')[0].decider).toBe('llm');
    const picks = eventsOf(events, 'decision');
    expect(picks.map((p) => `${p.tool}:${p.decider}`)).toEqual([`hybrid_search:llm`, `text_response:llm`]);
    // the first call's schema only allowed the tools available at step 1
    const firstSchema = (model.doGenerateCalls[0].responseFormat as unknown as { schema: { properties: { tool: { enum: string[] } } } }).schema;
    expect(firstSchema.properties.tool.enum).toEqual(['fast_vector_search', 'hybrid_search']);
    expect(promptText(model.doGenerateCalls[1])).toContain('Your previous reply was invalid');
    expect(picks[0].inputs).toEqual({ query: 'breaker trips pump' });

    const deltas = eventsOf(events, 'response_delta');
    expect(deltas.length).toBeGreaterThan(3);
    const response = eventsOf(events, 'response')[0];
    // 40 A is in no cited source: the answer was rewritten once and shown after the reset
    const lastReset = deltas.findLastIndex((x) => x.reset);
    expect(lastReset).toBeGreaterThan(0);
    expect(response.text).toBe(
      deltas
        .slice(lastReset)
        .map((x) => x.delta)
        .join('')
        .trim(),
    );
    expect(model.doStreamCalls).toHaveLength(2);
    expect(promptText(model.doStreamCalls[1])).toContain('"40 A" (cited [2])');
    expect(response.sources.map((s) => [s.ref, s.page])).toEqual([
      [1, 4],
      [2, 12],
    ]);
    // the grounded-answer prompt lists the environment's sources with their refs
    expect(promptText(model.doStreamCalls[0])).toContain('[1] m1 p.4 (Specifications): The pump motor is rated at 230 V');

    const check = eventsOf(events, 'check')[0];
    expect(check.method).toBe('llm');
    expect(check.unsupported).toEqual([
      { index: 1, sentence: 'Replace the breaker with a larger type [2].', refs: [2], reason: 'no source says to change the breaker' },
    ]);
    expect(check.values).toEqual({ checked: 1, unverified: [] });
    const metrics = eventsOf(events, 'metrics')[0];
    expect(metrics.tokens!.total).toBeGreaterThan(0);
    expect(metrics.path).toEqual(['hybrid_search', 'text_response']);
  });

  it('value lock: a model that invents a value is caught, rewrites once with the finding, and the corrected answer passes', async () => {
    const { model, events } = await answeredBy('What voltage is the pump motor rated for?', [
      'The motor is rated at 240 V [1].',
      'The motor is rated at 230 V [1].',
    ]);
    expect(eventsOf(events, 'status').some((e) => e.message.startsWith('240 V: not in the cited sources'))).toBe(true);
    expect(promptText(model.doStreamCalls[1])).toContain(
      'Your previous answer stated values that do not appear in the sources it cites:\n- "240 V" (cited [1])',
    );
    const response = eventsOf(events, 'response')[0];
    expect(response.text).toBe('The motor is rated at 230 V [1].');
    expect(eventsOf(events, 'check')[0].values).toEqual({ checked: 1, unverified: [] });
  });

  it('answer check: a value still invented after the rewrite is not stated; the reply falls back to the closest pages', async () => {
    const { model, events } = await answeredBy('How much current does the pump motor draw?', ['The motor draws 9.5 A at full load [1].']);
    expect(model.doStreamCalls).toHaveLength(2);
    const response = eventsOf(events, 'response')[0];
    expect(response).toMatchObject({ mode: 'pages', declined: true, method: 'llm' });
    expect(response.text).not.toContain('9.5 A');
    expect(response.text).toMatch(/closest match/);
    expect(response.fallback_reason).toMatch(/^answer check: 9\.5 A: not in the cited sources/);
    expect(response.pages?.map((p) => p.page)).toContain(4);
    // the streamed model text is replaced by the pages sentence
    const deltas = eventsOf(events, 'response_delta');
    const lastReset = deltas.findLastIndex((x) => x.reset);
    expect(
      deltas
        .slice(lastReset)
        .map((x) => x.delta)
        .join(''),
    ).toBe(response.text);
    // nothing is stated, so nothing is checked sentence by sentence
    expect(eventsOf(events, 'check')).toHaveLength(0);
  });

  it("answer check: an answer citing only another device's manual than the one the question names falls back to the closest pages", async () => {
    const hits = [
      chunk('The Zentro QX-40 pump motor is rated at 230 V.', {
        heading: 'Zentro QX-40 specifications',
        page: 2,
        manualId: 'qx',
        manualTitle: 'Zentro QX-40 pump manual',
      }),
      chunk('The Brava K9 mixer motor is rated at 110 V.', {
        heading: 'Brava K9 specifications',
        page: 7,
        manualId: 'k9',
        manualTitle: 'Brava K9 mixer manual',
      }),
    ];
    const model = new MockLanguageModelV3({
      doGenerate: async () => jsonResult({ verdicts: [{ index: 0, supported: true }] }),
      doStream: async () => streamOf('The motor is rated at 110 V [2].'),
    });
    const events = await collectTurn({
      question: 'What voltage is the Zentro QX-40 motor rated for?',
      services: agentServices({ ...offlineDeps, llm: { provider: 'test', modelId: 'mock', model, vision: false } }),
      tools: [search('hybrid_search', hits), textResponse],
      options: { skills: [], decider: 'rules' },
    });
    const response = eventsOf(events, 'response')[0];
    expect(response).toMatchObject({ mode: 'pages', declined: true });
    expect(response.fallback_reason).toMatch(/other manuals than the one of the device the question names/);
  });

  it('tells the model which maker and model no manual mentions', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => jsonResult({ verdicts: [] }),
      doStream: async () => streamOf('The manuals do not cover the Grundfos CR45: no manual in the library mentions it.'),
    });
    const unknownSearch = scriptedTool({
      name: 'hybrid_search',
      run: () => [{ ...resultOf(PUMP), modelLookup: { query: 'What voltage is a Grundfos CR45 pump rated for?', known: { cr45: false } } }],
    });
    const events = await collectTurn({
      question: 'What voltage is a Grundfos CR45 pump rated for?',
      services: agentServices({ ...offlineDeps, llm: { provider: 'test', modelId: 'mock', model, vision: false } }),
      tools: [unknownSearch, textResponse],
      options: { skills: [], decider: 'rules' },
    });
    expect(promptText(model.doStreamCalls[0])).toContain('Note: no manual in the library mentions Grundfos CR45.');
    expect(eventsOf(events, 'response')[0]).toMatchObject({ declined: true });
  });

  it('falls back to the extractive answer when the LLM stream fails', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => {
        throw new Error('503 model overloaded');
      },
    });
    const events = await collectTurn({
      question: 'What current does the motor draw?',
      services: agentServices({ ...offlineDeps, llm: { provider: 'test', modelId: 'm', model, vision: false } }),
      tools: [search('fast_vector_search'), textResponse],
      options: { skills: [], decider: 'rules' },
    });
    expect(eventsOf(events, 'status').some((s) => s.message.includes('answering from the passages'))).toBe(true);
    expect(eventsOf(events, 'response')[0].text).toContain('draws 6.8 A at full load [1].');
    expect(eventsOf(events, 'done')[0].status).toBe('done');
  });

  it('restarts the streamed answer (reset) when the LLM fails mid-stream', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'The motor dr' },
            { type: 'error', error: new Error('connection reset') },
          ],
          initialDelayInMs: null,
          chunkDelayInMs: null,
        }),
      }),
    });
    const events = await collectTurn({
      question: 'What current does the motor draw?',
      services: agentServices({ ...offlineDeps, llm: { provider: 'test', modelId: 'm', model, vision: false } }),
      tools: [search('fast_vector_search'), textResponse],
      options: { skills: [], decider: 'rules' },
    });
    const deltas = eventsOf(events, 'response_delta');
    expect(deltas[0]).toMatchObject({ delta: 'The motor dr' });
    expect(deltas[1]).toMatchObject({ reset: true });
    const response = eventsOf(events, 'response')[0];
    expect(response.text).toBe(
      deltas
        .slice(1)
        .map((x) => x.delta)
        .join(''),
    );
    expect(response.text).toContain('draws 6.8 A at full load [1].');
  });

  it('visual question: page search, then the VLM reads the best page image (PNG file part), cited', async () => {
    const { client: vlm, model } = mockLlm({ generate: [textResult('On connector J1, pin 3 carries the HEATER signal.')] });
    const loaded: Array<[string, number]> = [];
    const colqwen = scriptedTool({
      name: 'colqwen_search',
      run: () => [resultOf([page('fmu', 31, { score: 0.82, text: 'J1 IMU flex connector' }), page('fmu', 30, { score: 0.41 })], 'pages')],
    });
    const events = await collectTurn({
      question: 'On the IMU flex connector J1 diagram, which pin carries HEATER?',
      services: agentServices({
        ...offlineDeps,
        vlm,
        pageImage: async (manualId, n) => {
          loaded.push([manualId, n]);
          return Buffer.from([0x89, 0x50, 0x4e, 0x47]);
        },
      }),
      // Without hybrid_search in the registry the rules start with the page search.
      tools: [colqwen, visualInterpretation, textResponse],
      options: { skills: [] },
    });
    const picks = eventsOf(events, 'decision');
    expect(picks.map((p) => p.tool)).toEqual(['colqwen_search', 'visual_interpretation', 'text_response']);
    // before the page search the VLM tool is listed with its reason
    expect(picks[0].unavailable).toContainEqual({ tool: 'visual_interpretation', reason: expect.stringContaining('run colqwen_search') });
    expect(loaded).toEqual([['fmu', 31]]);
    const content = model.doGenerateCalls[0].prompt[0].content as Array<{ type: string; mediaType?: string }>;
    expect(content.map((p) => p.type)).toEqual(['text', 'file']);
    expect(content[1].mediaType).toBe('image/png');
    const interpretation = eventsOf(events, 'result').find((r) => r.tool === 'visual_interpretation')!;
    expect(interpretation.refs).toEqual([1]); // same page as the page-search hit: same ref
    const response = eventsOf(events, 'response')[0];
    expect(response.text).toContain('pin 3 carries the HEATER signal [1].');
    expect(response.sources[0]).toMatchObject({ ref: 1, kind: 'page', manualId: 'fmu', page: 31, previewUrl: '/manuals/fmu/pages/31/image' });
  });

  it('visual_interpretation is unavailable without a VLM, with the reason', async () => {
    const colqwen = scriptedTool({ name: 'colqwen_search', run: () => [resultOf([page('fmu', 31, { text: 'J1 pin 3 HEATER' })], 'pages')] });
    const events = await collectTurn({
      question: 'On the J1 connector diagram, which pin carries HEATER?',
      services: agentServices({ ...offlineDeps, pageImage: async () => Buffer.alloc(0) }),
      tools: [colqwen, visualInterpretation, textResponse],
      options: { skills: [] },
    });
    const second = eventsOf(events, 'decision')[1];
    expect(second.tool).toBe('text_response');
    expect(second.unavailable).toContainEqual({ tool: 'visual_interpretation', reason: 'no vision model is configured (set VLM_PROVIDER)' });
  });

  it('summarize with the LLM when the environment is large', async () => {
    const { client, model } = mockLlm({
      generate: [textResult('The relief valve opens at 8 bar [1].')],
      stream: ['The relief valve opens at 8 bar [1].'],
    });
    const big = Array.from({ length: 40 }, (_, i) =>
      chunk(`${'Packaging and shipping remarks that matter little. '.repeat(75)} The relief valve opens at 8 bar.`, { chunkId: `b${i}`, page: i + 1 }),
    );
    const events = await collectTurn({
      question: 'At what pressure does the relief valve open?',
      services: agentServices({ ...offlineDeps, llm: client }),
      tools: [search('hybrid_search', big), summarize, textResponse],
      options: { skills: [], decider: 'rules' },
    });
    const summary = eventsOf(events, 'result').find((r) => r.tool === 'summarize')!;
    expect(summary.metadata).toMatchObject({ method: 'llm' });
    expect(promptText(model.doGenerateCalls[0])).toContain('at most 200 words');
    // after compaction the answer prompt is far smaller than the raw environment
    expect(promptText(model.doStreamCalls[0]).length).toBeLessThan(40_000);
    expect(promptText(model.doStreamCalls[0])).toContain('Summary of the sources: The relief valve opens at 8 bar [1].');
  });
});

describe('the decider of a turn', () => {
  /** An LLM that picks hybrid_search then text_response, answers from the pump passages and finds every sentence supported. */
  function deciding() {
    const decisions = [
      jsonResult({ tool: 'hybrid_search', reason: 'spec question', inputs: { query: 'motor full-load current' } }),
      jsonResult({ tool: 'text_response', reason: 'evidence found' }),
    ];
    let d = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) =>
        promptText(options).includes('Answer sentences')
          ? jsonResult({ verdicts: [{ index: 0, supported: true }] })
          : decisions[Math.min(d++, decisions.length - 1)],
      doStream: async () => streamOf('The motor draws 6.8 A at full load [1].'),
    });
    const llm: LlmClient = { provider: 'test', modelId: 'mock', model, vision: false };
    return { llm, decisionCalls: () => d };
  }
  const question = 'What current does the pump motor draw at full load?';
  const tools = [search('hybrid_search'), textResponse];

  it('comes from the services, not the environment', async () => {
    const saved = snapshotEnv(['DECIDER', 'LLM_PROVIDER']);
    Object.assign(process.env, { DECIDER: 'rules', LLM_PROVIDER: 'none' });
    try {
      expect(getProviderConfig().decider.provider).toBe('rules');
      const { llm, decisionCalls } = deciding();
      const services = { ...agentServices(offlineDeps), llm: async () => llm, decider: 'llm' as const };
      const events = await collectTurn({ question, services, tools, options: { skills: [] } });
      expect(eventsOf(events, 'turn_start')[0].decider).toBe('llm');
      // the first pick is the LLM's (the rules fast path may take the answer step)
      expect(eventsOf(events, 'decision')[0]).toMatchObject({ tool: 'hybrid_search', decider: 'llm' });
      expect(decisionCalls()).toBeGreaterThan(0);
    } finally {
      restoreEnv(saved);
    }
  });

  it('is the one the deps name, even with an LLM injected', async () => {
    const { llm, decisionCalls } = deciding();
    const events = await collectTurn({ question, services: agentServices({ ...offlineDeps, llm, decider: 'rules' }), tools, options: { skills: [] } });
    expect(eventsOf(events, 'turn_start')[0].decider).toBe('rules');
    expect(eventsOf(events, 'decision').every((p) => p.decider !== 'llm')).toBe(true);
    expect(decisionCalls()).toBe(0);
    expect(eventsOf(events, 'response')[0].text).toContain('6.8 A');
  });
});
