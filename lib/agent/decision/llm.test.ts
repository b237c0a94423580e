import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyTool, type AgentServices } from '@/lib/agent/contract';
import { Environment } from '../environment';
import { chunk, jsonResult, mockLlm, promptText, resultOf, scriptedTool, textResult } from '../testing/turn';
import type { TreeData } from '../contract';
import { createLlmDecider } from './llm';
import type { ToolOption } from './types';

const search = (name: string) =>
  scriptedTool({ name, inputs: z.object({ query: z.string().min(1), limit: z.number().int().max(20).default(5) }), run: () => [] });
const tools: AnyTool[] = [
  search('fast_vector_search'),
  search('colqwen_search'),
  search('hybrid_search'),
  scriptedTool({ name: 'text_response', end: true, run: () => [] }),
];

// An open question the rules are unsure about (confidence 0.6), so the LLM is asked.
const QUESTION = 'The printer keeps stopping halfway through long jobs since the update, any idea why?';

function setup(
  generate: ReturnType<typeof jsonResult>[],
  unavailable: Record<string, string> = { ['colqwen_search']: 'no multi-vector index', ['text_response']: 'search first' },
) {
  const { client, model } = mockLlm({ generate });
  const tree: TreeData = {
    question: QUESTION,
    history: [],
    environment: new Environment(),
    errors: [{ tool: 'fast_vector_search', message: 'embedder timed out', recoverable: true, iteration: 0 }],
    iteration: 1,
    budget: 5,
    decisions: [],
    skill: null,
    services: { llm: async () => client } as unknown as AgentServices,
    removed: {},
  };
  const options: ToolOption[] = tools.map((tool) => ({
    tool,
    availability: unavailable[tool.name] ? { ok: false, reason: unavailable[tool.name] } : { ok: true },
  }));
  const usage: unknown[] = [];
  const ctx = { tree, options, signal: new AbortController().signal, recordUsage: (u: unknown) => usage.push(u) };
  return { ctx, model, usage };
}

const schemaOf = (call: { responseFormat?: unknown }) => (call.responseFormat as { schema: { properties: { tool: { enum: string[] } } } }).schema;

describe('LLM decider', () => {
  it('offers only the available tools in the schema and shows the budget, reasons and errors in the prompt', async () => {
    const { ctx, model, usage } = setup([jsonResult({ tool: 'hybrid_search', reason: 'open question', inputs: { query: 'printer stops mid job', limit: 8 } })]);
    const d = await createLlmDecider().decide(ctx);
    expect(d).toMatchObject({ tool: 'hybrid_search', decider: 'llm', reason: 'open question' });
    expect(d.input).toEqual({ query: 'printer stops mid job', limit: 8 });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(schemaOf(model.doGenerateCalls[0]).properties.tool.enum).toEqual(['fast_vector_search', 'hybrid_search']);
    const prompt = promptText(model.doGenerateCalls[0]);
    expect(prompt).toContain('Step 2 of 5: 4 decision(s) left');
    expect(prompt).toContain('colqwen_search: no multi-vector index');
    expect(prompt).toContain('embedder timed out');
    expect(prompt).not.toContain('Workflow to follow');
    expect(usage).toHaveLength(1);
  });

  it('retries an invalid pick once with the problem, then uses the valid one', async () => {
    const { ctx, model } = setup([
      jsonResult({ tool: 'colqwen_search', reason: 'look at pages' }), // not in the enum
      jsonResult({ tool: 'fast_vector_search', reason: 'dense search', inputs: { query: 'printer stops' } }),
    ]);
    const d = await createLlmDecider().decide(ctx);
    expect(d).toMatchObject({ tool: 'fast_vector_search', decider: 'llm' });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptText(model.doGenerateCalls[1])).toContain('Your previous reply was invalid');
  });

  it('treats inputs that fail the tool schema as an invalid pick', async () => {
    const { ctx, model } = setup([
      // the decision schema has every field optional; the tool's own schema requires a query
      jsonResult({ tool: 'fast_vector_search', reason: 'x', inputs: {} }),
      jsonResult({ tool: 'hybrid_search', reason: 'y', inputs: { query: 'printer' } }),
    ]);
    expect((await createLlmDecider().decide(ctx)).tool).toBe('hybrid_search');
    expect(promptText(model.doGenerateCalls[1])).toContain('invalid inputs for fast_vector_search');
  });

  it('falls back to the rules after two invalid replies', async () => {
    const { ctx, model } = setup([textResult('I think you should search'), jsonResult({ tool: 'web_search', reason: 'z' })]);
    const d = await createLlmDecider().decide(ctx);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(d.decider).toBe('rules');
    expect(d.tool).toBe('hybrid_search');
    expect(d.reason).toMatch(/^LLM decision invalid twice/);
  });

  it('skips the LLM call when the rules are confident (fast path)', async () => {
    const { ctx, model } = setup([jsonResult({ tool: 'hybrid_search', reason: 'n/a' })], {});
    ctx.tree.question = 'What is the motor current?';
    ctx.tree.environment.add('fast_vector_search', resultOf([chunk('The motor current is 6.8 A.')]), 0);
    const d = await createLlmDecider().decide(ctx);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(d).toMatchObject({ tool: 'text_response', decider: 'rules' });
    expect(d.reason).toContain('fast path');
  });

  it("adds a matched skill's steps to the decision prompt", async () => {
    const { ctx, model } = setup([jsonResult({ tool: 'hybrid_search', reason: 'skill step 1', inputs: { query: 'E07' } })]);
    ctx.tree.skill = {
      name: 'troubleshoot-error-code',
      tools: ['hybrid_search'],
      description: 'Diagnose an error code',
      steps: '1. Search the error code table.',
    };
    await createLlmDecider().decide(ctx);
    expect(promptText(model.doGenerateCalls[0])).toContain(
      'Workflow to follow (skill "troubleshoot-error-code": Diagnose an error code):\n1. Search the error code table.',
    );
  });
});
