import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolContext, ToolOutput } from '@/lib/agent/contract';
import { Environment } from './environment';
import type { AuditRecord } from './events';
import { chain, defaultInterceptors, type ToolCall } from './interceptors';
import { agentServices } from '@/lib/services/agent-services';
import { chunk, offlineDeps, resultOf, scriptedTool, type ScriptedToolSpec } from './testing/turn';
import type { TreeData } from './contract';

function call(spec: ScriptedToolSpec, input: unknown, signal = new AbortController().signal): ToolCall {
  const providers = agentServices(offlineDeps);
  const tree = { question: 'q', environment: new Environment(), errors: [], removed: {}, providers } as unknown as TreeData;
  const ctx: ToolContext = { ...providers, signal, recordUsage: () => {} };
  return { tool: scriptedTool(spec), input, tree, ctx };
}

async function drain(c: ToolCall, audit: AuditRecord[] = [], timeoutMs = 1000) {
  const out: ToolOutput[] = [];
  for await (const o of chain(defaultInterceptors({ audit, timeoutMs }))(c)) out.push(o);
  return out;
}

describe('interceptors', () => {
  it('applies schema defaults before the tool runs and audits the parsed inputs', async () => {
    const audit: AuditRecord[] = [];
    const seen: unknown[] = [];
    await drain(
      call(
        { name: 't', inputs: z.object({ query: z.string(), limit: z.number().default(5) }), run: (_n, _t, input) => (seen.push(input), []) },
        { query: 'x' },
      ),
      audit,
    );
    expect(seen).toEqual([{ query: 'x', limit: 5 }]);
    expect(audit).toEqual([{ tool: 't', inputs: { query: 'x', limit: 5 }, ms: expect.any(Number), outcome: 'ok', objects: 0 }]);
  });

  it('caps the number of objects and the text of each, and records the truncation', async () => {
    const audit: AuditRecord[] = [];
    const many = Array.from({ length: 60 }, (_, i) => chunk('x'.repeat(i === 0 ? 9000 : 10)));
    const [result] = await drain(call({ name: 't', run: () => [resultOf(many)] }, {}), audit);
    if (result.type !== 'result') throw new Error('expected a result');
    expect(result.objects).toHaveLength(40);
    expect(result.objects[0].text!.length).toBeLessThanOrEqual(4001);
    expect(result.metadata.truncated).toBe(true);
    expect(audit[0]).toMatchObject({ objects: 40, truncated: true });
  });

  it('aborts the tool signal at the deadline and reports a recoverable timeout', async () => {
    let toolSignal: AbortSignal | undefined;
    const out = await drain(
      call(
        {
          name: 'slow',
          run: (_n, _t, _i, signal) => {
            toolSignal = signal;
            return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
          },
        },
        {},
      ),
      [],
      30,
    );
    expect(out).toEqual([expect.objectContaining({ type: 'error', code: 'timeout', recoverable: true, message: 'slow timed out after 30 ms' })]);
    expect(toolSignal?.aborted).toBe(true);
  });

  it('propagates cancellation instead of turning it into a tool error', async () => {
    const controller = new AbortController();
    // The user presses Stop once the tool runs; the tool never ends by itself.
    const run = () => {
      queueMicrotask(() => controller.abort(new Error('stopped by user')));
      return new Promise<never>(() => {});
    };
    const c = call({ name: 'slow', run }, {}, controller.signal);
    const audit: AuditRecord[] = [];
    await expect(drain(c, audit)).rejects.toThrow('stopped by user');
    expect(audit[0].outcome).toBe('cancelled');
  });
});
