import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { textResponse } from '@/tools/text-response';
import { summarize } from '@/tools/summarize';
import { type AnyTool } from '@/lib/agent/contract';
import { agentServices } from '@/lib/services/agent-services';
import { LibraryIndex } from '@/lib/ranking/library-index';
import type { AgentEvent } from './events';
import { chunk, eventsOf, offlineDeps, page, resultOf, scriptedTool, WRITER_POLICIES } from './testing/turn';
import { runTurn, type RunTurnInput } from './tree';
import { collectTurn } from './testing/turn';
// These tests exercise the writer, not the operating point.
const writerDeps = { ...offlineDeps, policies: WRITER_POLICIES };

const PUMP = [
  chunk('The pump motor is rated at 230 V and 1.5 kW. The motor current is 6.8 A at full load.', { heading: 'Specifications', page: 4 }),
  chunk('Clean the inlet strainer every 500 hours of operation.', { heading: 'Maintenance', page: 9 }),
];

function searchTool(name: string, objects = PUMP) {
  return scriptedTool({ name, run: () => [resultOf(objects)] });
}

const run = (question: string, tools: AnyTool[], extra: Partial<RunTurnInput> = {}) =>
  collectTurn({ ...extra, question, tools, services: agentServices(writerDeps), options: { skills: [], ...extra.options } });

describe('runTurn: loop basics', () => {
  it('streams turn_start … decision/status/result … response, check, metrics, done with monotonic timing', async () => {
    // Both searches return the same passages; the rules start with the fused hybrid search.
    const fast = searchTool('fast_vector_search');
    const events = await run('What is the motor current?', [fast, searchTool('hybrid_search'), textResponse]);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('turn_start');
    expect(types.slice(-2)).toEqual(['metrics', 'done']);
    expect(eventsOf(events, 'done')[0].status).toBe('done');
    // every event carries t, never decreasing
    const ts = events.map((e) => e.t);
    expect(ts.every((t) => typeof t === 'number')).toBe(true);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    // plain JSON: a round trip changes nothing
    expect(JSON.parse(JSON.stringify(events))).toEqual(events);

    const decisions = eventsOf(events, 'decision');
    expect(decisions.map((d) => d.tool)).toEqual(['hybrid_search', 'text_response']);
    expect(decisions[0].decider).toBe('rules');
    const result = eventsOf(events, 'result')[0];
    expect(result.refs).toEqual([1, 2]);
    expect(result.hits[0]).toMatchObject({ ref: 1, kind: 'chunk', page: 4, heading: 'Specifications' });
    expect(result.time_ms).toBeGreaterThanOrEqual(0);

    const response = eventsOf(events, 'response')[0];
    expect(response.text).toContain('The motor current is 6.8 A at full load [1].');
    expect(response.sources[0]).toMatchObject({ ref: 1, manualId: 'm1', page: 4, chunkId: PUMP[0].chunkId });
    expect(response.sources[0].bboxes).toEqual([{ x: 10, y: 20, w: 100, h: 12 }, expect.objectContaining({ value: '6.8 A', y: 20, h: 12 })]);
    expect(
      eventsOf(events, 'response_delta')
        .map((d) => d.delta)
        .join(''),
    ).toBe(response.text);

    const metrics = eventsOf(events, 'metrics')[0];
    expect(metrics.path).toEqual(['hybrid_search', 'text_response']);
    expect(metrics.tools['hybrid_search'].calls).toBe(1);
    expect(metrics.audit.map((a) => [a.tool, a.outcome])).toEqual([
      ['hybrid_search', 'ok'],
      ['text_response', 'ok'],
    ]);
    expect(metrics.audit[0].inputs).toEqual({ query: 'What is the motor current?' });
    expect(metrics.decisions).toHaveLength(2);
    expect(metrics.tokens).toBeNull();
  });

  it('lists unavailable tools with their reasons in every decision', async () => {
    const colqwen = scriptedTool({
      name: 'colqwen_search',
      availability: async () => ({ ok: false, reason: 'page search is not configured: no multi-vector index' }),
      run: () => [],
    });
    const events = await run('What is the motor current?', [searchTool('fast_vector_search'), colqwen, textResponse]);
    const first = eventsOf(events, 'decision')[0];
    expect(first.available).toEqual(['fast_vector_search']);
    expect(first.unavailable).toEqual([
      { tool: 'colqwen_search', reason: 'page search is not configured: no multi-vector index' },
      { tool: 'text_response', reason: 'nothing retrieved yet: search first' },
    ]);
  });

  it('forces text_response at the budget and states the reason', async () => {
    // A search that never finds anything keeps the rules searching; the budget has to stop it.
    const empty = (name: string) => scriptedTool({ name, run: () => [resultOf([])] });
    const always = scriptedTool({ name: 'hybrid_search', run: () => [resultOf([chunk('Unrelated text about the enclosure colour.')])] });
    const events = await run(
      'Why does the display flicker after the firmware update?',
      [empty('fast_vector_search'), always, empty('colqwen_search'), textResponse],
      {
        options: { budget: 2 },
      },
    );
    const decisions = eventsOf(events, 'decision');
    expect(decisions).toHaveLength(2);
    expect(decisions[1]).toMatchObject({ tool: 'text_response', decider: 'forced' });
    expect(decisions[1].reason).toContain('budget');
    expect(eventsOf(events, 'metrics')[0].iterations).toBe(2);
    // weak evidence: declined, not guessed
    expect(eventsOf(events, 'response')[0].text).toMatch(/^(The manuals do not say|I could not find)/);
  });

  it('validates inputs with the schema (defaults applied) and feeds invalid input back as an error', async () => {
    const strict = scriptedTool({
      name: 'fast_vector_search',
      inputs: z.object({ query: z.string().min(1), limit: z.number().int().default(5) }),
      run: () => [resultOf(PUMP)],
    });
    await run('What is the motor current?', [strict, textResponse]);
    expect(strict.calls[0]).toEqual({ query: 'What is the motor current?', limit: 5 });

    const needsId = scriptedTool({ name: 'hybrid_search', inputs: z.object({ manual_id: z.string() }), run: () => [resultOf(PUMP)] });
    const events = await run('Why is the pump so loud at night?', [needsId, searchTool('fast_vector_search'), textResponse]);
    const error = eventsOf(events, 'error')[0];
    expect(error.tool).toBe('hybrid_search');
    expect(error.message).toContain('invalid input');
    expect(needsId.calls).toHaveLength(0);
    expect(eventsOf(events, 'metrics')[0].audit[0].outcome).toBe('invalid_input');
  });
});

describe('runTurn: self-healing', () => {
  it('feeds a recoverable error to the next decision and removes the tool after its second failure', async () => {
    const flaky = scriptedTool({
      name: 'hybrid_search',
      run: (n) => [{ type: 'error', message: `index busy (attempt ${n})`, recoverable: true, suggestion: 'retry later' }],
    });
    const fast = searchTool('fast_vector_search');
    const seenErrors: number[] = [];
    const spy = scriptedTool({
      name: 'text_response',
      end: true,
      availability: async (t) => {
        seenErrors.push(t.errors.length);
        return t.environment.isEmpty ? { ok: false, reason: 'search first' } : { ok: true };
      },
      run: () => [{ type: 'response', text: 'ok', sources: [] }],
    });
    // "Why …" is open-ended: the rules prefer hybrid_search.
    const events = await run('Why does the pump lose pressure over time?', [fast, flaky, spy]);
    const errors = eventsOf(events, 'error');
    expect(errors.map((e) => [e.tool, e.recoverable, e.removed ?? false])).toEqual([
      ['hybrid_search', true, false],
      ['hybrid_search', true, true],
    ]);
    const decisions = eventsOf(events, 'decision');
    expect(decisions.map((d) => d.tool)).toEqual(['hybrid_search', 'hybrid_search', 'fast_vector_search', 'text_response']);
    expect(decisions[1].reason).toContain('index busy (attempt 1)');
    // after removal the decider sees the reason instead of the tool
    expect(decisions[2].unavailable).toContainEqual({ tool: 'hybrid_search', reason: expect.stringContaining('failed twice this turn') });
    expect(decisions[2].available).not.toContain('hybrid_search');
    expect(flaky.calls).toHaveLength(2);
    expect(Math.max(...seenErrors)).toBe(2);
    expect(eventsOf(events, 'done')[0].status).toBe('done');
  });

  it('ends as failed, with the errors, when the answering tool fails twice', async () => {
    const broken = scriptedTool({ name: 'text_response', end: true, run: () => [{ type: 'error', message: 'renderer crashed', recoverable: true }] });
    const events = await run('What is the motor current?', [searchTool('fast_vector_search'), broken]);
    expect(broken.calls).toHaveLength(2);
    expect(eventsOf(events, 'error').at(-1)).toMatchObject({ tool: 'text_response', removed: true });
    expect(eventsOf(events, 'response')).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'failed' });
  });

  it('turns a thrown exception and a deadline overrun into recoverable errors', async () => {
    const throws = scriptedTool({
      name: 'hybrid_search',
      run: () => {
        throw new Error('table manuals_chunks not found');
      },
    });
    const hangs = scriptedTool({ name: 'fast_vector_search', timeoutMs: 50, run: () => new Promise(() => {}) });
    const events = await run('Why does the pump lose pressure over time?', [hangs, throws, searchTool('colqwen_search'), textResponse]);
    const errors = eventsOf(events, 'error');
    expect(errors.find((e) => e.tool === 'hybrid_search')?.message).toContain('table manuals_chunks not found');
    expect(errors.find((e) => e.tool === 'fast_vector_search')?.message).toContain('timed out after 50 ms');
    const audit = eventsOf(events, 'metrics')[0].audit;
    expect(audit.find((a) => a.tool === 'fast_vector_search')?.outcome).toBe('timeout');
    expect(eventsOf(events, 'done')[0].status).toBe('done');
  });
});

describe('runTurn: auto-triggers', () => {
  it('runs summarize by runIf once the environment exceeds 30k tokens, once, and compacts it', async () => {
    const sentence = 'The relief valve opens at 8 bar and protects the pump housing from overpressure. ';
    const huge = Array.from({ length: 40 }, (_, i) => chunk(`${sentence.repeat(45)} Section ${i} ends here.`, { page: i + 1, chunkId: `big${i}` }));
    const events = await run('At what pressure does the relief valve open?', [searchTool('hybrid_search', huge), summarize, textResponse]);
    const decisions = eventsOf(events, 'decision');
    expect(decisions.map((d) => `${d.tool}:${d.decider}`)).toEqual([`hybrid_search:rules`, `summarize:auto`, `text_response:rules`]);
    expect(decisions[1].reason).toMatch(/≈\d+ tokens/);
    const summary = eventsOf(events, 'result').find((r) => r.tool === 'summarize')!;
    expect(summary.metadata.tokens_before).toBeGreaterThan(30_000);
    expect(summary.metadata.method).toBe('extractive');
    expect(eventsOf(events, 'response')[0].text).toContain('8 bar');
  });

  it('does not auto-run summarize on a small environment', async () => {
    const events = await run('What is the motor current?', [searchTool('fast_vector_search'), summarize, textResponse]);
    expect(eventsOf(events, 'decision').some((d) => d.tool === 'summarize')).toBe(false);
  });
});

describe('runTurn: cancellation', () => {
  it('stops at the next await, keeps what it had and ends with done: cancelled', async () => {
    const controller = new AbortController();
    const fast = searchTool('fast_vector_search');
    // Ignores its signal on purpose: the loop must stop waiting anyway. The user presses Stop once it runs.
    const stuck = scriptedTool({
      name: 'text_response',
      end: true,
      run: () => {
        queueMicrotask(() => controller.abort());
        return new Promise(() => {});
      },
    });
    const events: AgentEvent[] = [];
    for await (const e of runTurn({
      question: 'What is the motor current?',
      signal: controller.signal,
      services: agentServices(writerDeps),
      tools: [fast, stuck],
      options: { skills: [] },
    })) {
      events.push(e);
    }
    // A loop that kept waiting on the stuck tool would never end: the test would time out.
    expect(eventsOf(events, 'result')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    expect(eventsOf(events, 'metrics')[0].audit.at(-1)).toMatchObject({ tool: 'text_response', outcome: 'cancelled' });
  });

  it('returns the partial answer streamed before the stop, with its sources', async () => {
    const controller = new AbortController();
    const streaming = scriptedTool({
      name: 'text_response',
      end: true,
      async *run() {
        yield { type: 'response', delta: 'The motor draws 6.8 A [1].' };
        controller.abort();
        await new Promise(() => {});
      },
    });
    const events = await collectTurn({
      question: 'What is the motor current?',
      signal: controller.signal,
      services: agentServices(writerDeps),
      tools: [searchTool('fast_vector_search'), streaming],
      options: { skills: [] },
    });
    const response = eventsOf(events, 'response')[0];
    expect(response).toMatchObject({ text: 'The motor draws 6.8 A [1].', partial: true });
    expect(response.sources.map((s) => s.ref)).toEqual([1]);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
  });

  it('numbers the final answer [1]..[n] by first use, one source per section of a page', async () => {
    const hits = [
      chunk('The pump motor is rated at 230 V.', { heading: 'Specifications', page: 4 }),
      chunk('Clean the inlet strainer every 500 hours.', { heading: 'Maintenance', page: 9 }),
      chunk('The motor current is 6.8 A at full load.', { heading: 'Specifications', page: 4 }),
    ];
    const text = 'Clean the strainer every 500 hours [2]. The motor is rated at 230 V [3]. It draws 6.8 A [1].';
    const writer = scriptedTool({
      name: 'text_response',
      end: true,
      run: (_call, t) => [{ type: 'response', text, sources: t.environment.sourcesFor(text) }],
    });
    const events = await run('What is the motor current?', [searchTool('fast_vector_search', hits), writer]);
    const response = eventsOf(events, 'response')[0];
    expect(response.text).toBe('Clean the strainer every 500 hours [1]. The motor is rated at 230 V [2]. It draws 6.8 A [2].');
    expect(response.sources.map((s) => [s.ref, s.page, s.heading])).toEqual([
      [1, 9, 'Maintenance'],
      [2, 4, 'Specifications'],
    ]);
    // The trail keeps the agent's numbers for what the searches found.
    expect(eventsOf(events, 'result')[0].refs).toEqual([1, 2, 3]);
  });

  it('an already-aborted signal runs no tool', async () => {
    const controller = new AbortController();
    controller.abort();
    const fast = searchTool('fast_vector_search');
    const events = await collectTurn({
      question: 'What is the motor current?',
      signal: controller.signal,
      services: agentServices(writerDeps),
      tools: [fast, textResponse],
      options: { skills: [] },
    });
    expect(fast.calls).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
  });
});

describe('runTurn: skills', () => {
  const decoy = { name: 'find-spec', tools: ['hybrid_search'], description: 'Look up a rating or limit', steps: 'Search the specification table.' };
  const skill = {
    name: 'read-diagram',
    tools: ['colqwen_search', 'visual_interpretation', 'text_response'],
    description: 'Read a diagram',
    steps: '1. Find the page.',
  };

  it('announces the matched skill and guarantees its tools before the decider', async () => {
    const colqwen = scriptedTool({ name: 'colqwen_search', run: () => [resultOf([page('m1', 7, { text: 'J1 pin 3 HEATER' })], 'pages')] });
    const fast = searchTool('fast_vector_search');
    const events = await collectTurn({
      question: 'What is the motor current?',
      services: agentServices(writerDeps),
      tools: [fast, colqwen, textResponse],
      options: { skills: [decoy, skill] },
    });
    // "motor current" does not match the diagram skill text: no skill, no colqwen
    expect(eventsOf(events, 'skill')).toHaveLength(0);
    expect(colqwen.calls).toHaveLength(0);

    const matched = await collectTurn({
      question: 'Which pin on the J1 connector diagram carries HEATER?',
      services: agentServices(writerDeps),
      tools: [fast, colqwen, textResponse],
      options: {
        skills: [
          decoy,
          { ...skill, tools: ['fast_vector_search', 'colqwen_search', 'text_response'], steps: 'Find the diagram of the connector, then read the pin.' },
        ],
      },
    });
    expect(eventsOf(matched, 'skill')[0]).toMatchObject({ name: 'read-diagram' });
    const decisions = eventsOf(matched, 'decision');
    // the rules alone would go colqwen → answer; the skill adds fast_vector_search first
    expect(decisions.map((d) => `${d.tool}:${d.decider}`).slice(0, 2)).toEqual([`fast_vector_search:skill`, `colqwen_search:skill`]);
    expect(decisions.at(-1)!.tool).toBe('text_response');
  });
});

describe('runTurn: the library index comes from the services', () => {
  it("reads a follow-up with the device words of the services' index", async () => {
    const manuals = [
      { id: 'px', title: 'PX-200 Pump Manual', fileName: 'px-200.pdf' },
      { id: 'cb', title: 'CB-9 Controller Board Guide', fileName: 'cb-9.pdf' },
      { id: 'hx', title: 'HX-7 Heat Exchanger Handbook', fileName: 'hx-7.pdf' },
    ];
    let calls = 0;
    const index = new LibraryIndex({ manuals, pages: [], chunks: [] });
    const services = agentServices({ ...writerDeps, libraryIndex: async () => (calls++, index) });
    const events = await collectTurn({
      question: 'and the fuse rating?',
      history: [
        { role: 'user', content: 'What is the motor current of the PX-200 pump?' },
        { role: 'assistant', content: 'The motor current is 6.8 A at full load [1].' },
      ],
      services,
      tools: [searchTool('hybrid_search'), textResponse],
      options: { skills: [] },
    });
    expect(calls).toBe(1);
    // Read as a follow-up only because the index's identity words name the PX-200.
    expect(eventsOf(events, 'turn_start')[0].resolved).toBe('and the fuse rating? — continuing “What is the motor current of the PX-200 pump?”');
  });
});
