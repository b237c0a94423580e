/**
 * The LLM decider: one structured-output call whose schema only admits the tools available now
 * (the enum is rebuilt every decision). The rules matrix answers first when it is confident (fast
 * path, no LLM call); an invalid pick is retried once with the error, then the rules decide.
 */
import { generateText, Output } from 'ai';
import { z } from 'zod';
import type { AnyTool } from '@/lib/agent/contract';
import { truncate } from '@/lib/text/format';
import { decideByRules } from './rules';
import { availableNames, type Decider, type DecisionContext, type ToolOption } from './types';

export interface LlmDeciderOptions {
  /** Rules confidence at or above which the LLM call is skipped. */
  fastPathConfidence?: number;
}

export const DEFAULT_FAST_PATH_CONFIDENCE = 0.85;

const SYSTEM = `You choose the next step of an assistant that answers technicians' questions from equipment manuals.
Pick exactly one tool from the allowed list and give its inputs. Prefer searching before answering; pick the
answering tool once the environment holds the evidence, or when further searching will not help. Never invent
tools or input fields. Keep the reason to one short sentence.`;

export function createLlmDecider(opts: LlmDeciderOptions = {}): Decider {
  const threshold = opts.fastPathConfidence ?? DEFAULT_FAST_PATH_CONFIDENCE;
  return {
    kind: 'llm',
    async decide(ctx) {
      const rules = decideByRules(ctx);
      if ((rules.confidence ?? 0) >= threshold) {
        return { ...rules, reason: `fast path (rules confidence ${rules.confidence}): ${rules.reason}` };
      }
      const llm = await ctx.tree.services.llm();
      if (!llm) return { ...rules, reason: `no LLM configured: ${rules.reason}` };

      const allowed = availableNames(ctx.options);
      if (allowed.length === 0) return rules;
      const schema = decisionSchema(ctx.options);
      let feedback = '';
      let lastProblem = '';
      for (let attempt = 0; attempt < 2; attempt++) {
        ctx.signal.throwIfAborted();
        try {
          const result = await generateText({
            model: llm.model,
            system: SYSTEM,
            prompt: decisionPrompt(ctx) + feedback,
            output: Output.object({ schema, name: 'next_step', description: 'The next tool to run and its inputs' }),
            abortSignal: ctx.signal,
            maxRetries: 0,
          });
          ctx.recordUsage(result.usage);
          const pick = result.output;
          const problem = checkPick(pick, ctx.options);
          if (!problem) {
            return { tool: pick.tool, input: inputsFor(ctx.options, pick.tool, pick.inputs), reason: pick.reason, decider: 'llm' };
          }
          lastProblem = problem;
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          lastProblem = err instanceof Error ? err.message : String(err);
        }
        feedback = `\n\nYour previous reply was invalid: ${truncate(lastProblem, 400)}\nReply again with JSON where "tool" is one of: ${allowed.join(', ')}.`;
      }
      return { ...rules, reason: `LLM decision invalid twice (${truncate(lastProblem, 160)}); rules: ${rules.reason}` };
    },
  };
}

type Pick = { tool: string; reason: string; inputs?: Record<string, unknown> };

/** The tool enum holds only the tools available now; inputs are the union of their fields. */
function decisionSchema(options: ToolOption[]) {
  const allowed = availableNames(options) as [string, ...string[]];
  const fields: Record<string, z.ZodType> = {};
  for (const o of options) {
    if (!o.availability.ok) continue;
    for (const [key, field] of Object.entries(objectShape(o.tool))) {
      // Defaults are applied by the tool's own schema later; here every field is optional.
      fields[key] ??= (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : field).optional();
    }
  }
  return z.object({
    tool: z.enum(allowed),
    reason: z.string(),
    inputs: z.object(fields).optional(),
  });
}

function objectShape(tool: AnyTool): Record<string, z.ZodType> {
  return tool.inputs instanceof z.ZodObject ? (tool.inputs.shape as Record<string, z.ZodType>) : {};
}

/** Keeps the inputs that belong to the picked tool (the schema merged every tool's fields). */
function inputsFor(options: ToolOption[], tool: string, inputs: Record<string, unknown> | undefined): Record<string, unknown> {
  const option = options.find((o) => o.tool.name === tool)!;
  const keys = Object.keys(objectShape(option.tool));
  return Object.fromEntries(Object.entries(inputs ?? {}).filter(([k, v]) => keys.includes(k) && v !== undefined && v !== null));
}

/** Why a pick cannot run, or null when it can (the schema already restricts the tool enum). */
function checkPick(pick: Pick, options: ToolOption[]): string | null {
  const option = options.find((o) => o.tool.name === pick.tool);
  if (!option) return `unknown tool "${pick.tool}"`;
  if (!option.availability.ok) return `${pick.tool} is not available: ${option.availability.reason}`;
  const parsed = option.tool.inputs.safeParse(inputsFor(options, pick.tool, pick.inputs));
  if (!parsed.success) return `invalid inputs for ${pick.tool}: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`;
  return null;
}

function decisionPrompt(ctx: DecisionContext): string {
  const { tree, options } = ctx;
  const remaining = tree.budget - tree.iteration;
  const lines: string[] = [];
  lines.push(`Question: ${tree.question}`);
  const history = tree.history.slice(-4);
  if (history.length) {
    lines.push('', 'Conversation so far:');
    for (const turn of history) lines.push(`${turn.role}: ${truncate(turn.content.replace(/\s+/g, ' '), 300)}`);
  }
  lines.push('', `Manual scope: ${tree.manualIds?.length ? tree.manualIds.join(', ') : 'all manuals'}`);
  lines.push(
    `Step ${tree.iteration + 1} of ${tree.budget}: ${remaining} decision(s) left including the final answer. ` +
      `At the last step text_response runs regardless.`,
  );
  if (tree.skill) {
    lines.push('', `Workflow to follow (skill "${tree.skill.name}": ${tree.skill.description}):`, tree.skill.steps);
  }
  lines.push('', 'Tools you can pick now:');
  for (const o of options.filter((x) => x.availability.ok)) {
    lines.push(`- ${o.tool.name}: ${o.tool.description} Inputs: ${describeInputs(o.tool)}`);
  }
  const unavailable = options.filter((x) => !x.availability.ok);
  if (unavailable.length) {
    lines.push('', 'Tools not available now (do not pick them):');
    for (const o of unavailable) lines.push(`- ${o.tool.name}: ${o.availability.ok ? '' : o.availability.reason}`);
  }
  if (tree.errors.length) {
    lines.push('', 'Errors so far (fix the cause or choose another tool; a tool that fails twice is removed):');
    for (const e of tree.errors) lines.push(`- step ${e.iteration + 1}, ${e.tool}: ${e.message}${e.suggestion ? ` Suggestion: ${e.suggestion}` : ''}`);
  }
  if (tree.decisions.length) {
    lines.push('', `Steps taken: ${tree.decisions.map((d) => `${d.tool}${d.outcome === 'error' ? ' (failed)' : ''}`).join(' → ')}`);
  }
  lines.push('', 'Environment (what the tools found so far; [n] are citation numbers):', tree.environment.describe({ maxCharsPerHit: 240 }));
  return lines.join('\n');
}

function describeInputs(tool: AnyTool): string {
  try {
    const json = z.toJSONSchema(tool.inputs, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, { type?: string; default?: unknown; description?: string }>;
      required?: string[];
    };
    const props = Object.entries(json.properties ?? {});
    if (!props.length) return 'none';
    return props
      .map(([k, p]) => {
        const req = json.required?.includes(k) ? '' : '?';
        const def = p.default !== undefined ? ` = ${JSON.stringify(p.default)}` : '';
        const desc = p.description ? ` (${p.description})` : '';
        return `${k}${req}: ${p.type ?? 'value'}${def}${desc}`;
      })
      .join('; ');
  } catch {
    return 'see description';
  }
}
