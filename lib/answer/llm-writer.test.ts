/** The LLM writer on plain evidence; every model here is MockLanguageModelV3 (ai/test). */
import { describe, expect, it } from 'vitest';
import { chunk, mockLlm, promptText } from '@/lib/agent/testing/turn';
import type { RefHit } from './hits';
import { answerPrompt, llmAnswerFails, llmReplyForm, writeWithLlm, type LlmWriting, type WriterEvidence, type WriterOutput } from './llm-writer';
import { DECLINE_OPENING } from './word';

const HITS: RefHit[] = [
  { ...chunk('The pump motor is rated at 230 V and draws 6.8 A at full load.', { manualId: 'pump', manualTitle: 'Pump manual', heading: 'Ratings' }), ref: 1 },
  { ...chunk('Clean the inlet strainer every 500 hours.', { manualId: 'pump', manualTitle: 'Pump manual', page: 2 }), ref: 2 },
];

function evidence(over: Partial<WriterEvidence> = {}): WriterEvidence {
  return {
    question: 'What current does the pump motor draw?',
    history: [],
    hits: HITS,
    units: [],
    lookups: [],
    citable: new Map(HITS.map((h) => [h.ref, h.text ?? ''])),
    titles: ['Pump manual'],
    ...over,
  };
}

async function write(stream: string[], e = evidence()): Promise<{ outputs: WriterOutput[]; result: LlmWriting; calls: string[] }> {
  const { client, model } = mockLlm({ stream });
  const gen = writeWithLlm(client.model, e, { signal: new AbortController().signal, recordUsage: () => {}, onDelta: () => {} });
  const outputs: WriterOutput[] = [];
  for (;;) {
    const next = await gen.next();
    if (next.done) return { outputs, result: next.value, calls: model.doStreamCalls.map((c) => promptText(c)) };
    outputs.push(next.value);
  }
}

describe('LLM writer', () => {
  it('prompts with the question, the numbered sources and the applicability notes, and asks for the decline opening', async () => {
    const lookups = [{ query: 'Can a Rigol DP832 power it?', known: { dp832: false } }];
    const prompt = answerPrompt(evidence({ lookups, summary: 'ratings of the pump' }));
    expect(prompt).toContain('Question: What current does the pump motor draw?');
    expect(prompt).toContain('[1] Pump manual p.1 (Ratings): The pump motor is rated at 230 V');
    expect(prompt).toContain('Note: no manual in the library mentions Rigol DP832.');
    expect(prompt).toContain('Summary of the sources: ratings of the pump');
    const { calls } = await write(['The motor draws 6.8 A at full load [1].']);
    expect(calls[0]).toContain(`starting "${DECLINE_OPENING}"`);
  });

  it('streams a checked answer once', async () => {
    const { outputs, result, calls } = await write(['The motor draws 6.8 A at full load [1].']);
    expect(result).toEqual({ text: 'The motor draws 6.8 A at full load [1].', answered: true, regenerated: false });
    expect(calls).toHaveLength(1);
    expect(outputs.every((o) => o.type === 'response' && !o.reset)).toBe(true);
  });

  it('rewrites once an answer stating a value its cited source lacks, replacing what was streamed', async () => {
    const { outputs, result, calls } = await write(['The motor draws 7.5 A [1].', 'The motor draws 6.8 A at full load [1].']);
    expect(result).toMatchObject({ text: 'The motor draws 6.8 A at full load [1].', answered: true, regenerated: true });
    expect(calls[1]).toContain('- "7.5 A" (cited [1])');
    expect(outputs).toContainEqual({ type: 'status', message: '7.5 A: not in the cited sources; asking the model to correct the answer' });
    const rewriteStart = outputs.findIndex((o) => o.type === 'status') + 1;
    expect(outputs[rewriteStart]).toMatchObject({ type: 'response', reset: true });
  });

  it('returns a model failure instead of throwing, so the tool can answer offline', async () => {
    const { outputs, result } = await write([]);
    expect(result).toMatchObject({ text: '', answered: false, regenerated: false, failure: 'mock: no stream scripted' });
    expect(outputs.at(-1)).toEqual({ type: 'status', message: 'The language model failed; answering from the passages directly' });
  });

  it('does not state an answer whose value is still unverified, or one citing another device than the question names', () => {
    const e = { ...evidence(), topicTerms: new Map<string, Set<string>>() };
    expect(llmAnswerFails('The motor draws 7.5 A [1].', e, ['pump'])).toBe('7.5 A: not in the cited sources after a rewrite');
    expect(llmAnswerFails('The motor draws 6.8 A at full load [1].', e, ['pump'])).toBeUndefined();
    expect(llmAnswerFails('The manuals do not say what the fan draws.', e, [])).toBeUndefined();
  });

  it('reads a reply as an answer, the closest pages, or not covered', () => {
    expect(llmReplyForm('The motor draws 6.8 A [1].', [])).toEqual({ declined: false, mode: 'answer' });
    expect(llmReplyForm('The manuals do not say what the fan draws.', [])).toEqual({ declined: true, mode: 'pages' });
    expect(llmReplyForm('The manual does not mention the DP832.', [{ query: 'Can a Rigol DP832 power it?', known: { dp832: false } }])).toEqual({
      declined: true,
      mode: 'not_covered',
    });
  });
});
