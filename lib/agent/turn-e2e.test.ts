/**
 * End to end, offline: the real tools, skills and rules over a real LanceDB store indexed with the
 * real offline embedders. No language model: extractive answers, lexical answer check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTools } from '@/tools';
import { agentServices } from '@/lib/services/agent-services';
import { eventsOf, mockLlm, textResult, WRITER_POLICIES } from './testing/turn';
import { bboxFor, openFixtureStore, type FixtureStore } from './testing/library';
import { collectTurn } from './testing/turn';
import { isValueBox } from '@/lib/answer/value-boxes';

// These tests exercise the writer, not the operating point (WRITER_POLICIES).

let fx: FixtureStore;
beforeAll(async () => {
  fx = await openFixtureStore();
});
afterAll(async () => {
  await fx?.close();
});

const ask = (question: string, manualIds?: string[]) =>
  collectTurn({ tools: defaultTools, question, manualIds, services: agentServices({ ...fx.deps, policies: WRITER_POLICIES }) });

describe('a turn over a real LanceDB store', () => {
  it('answers a spec question with a cited sentence whose source highlights the chunk', async () => {
    const events = await ask('What is the full-load current of the PX-200 motor?');
    const response = eventsOf(events, 'response')[0];
    expect(response.text).toMatch(/The full-load current is 6\.8 A \[(\d+)\]\./);
    const ref = Number(response.text.match(/6\.8 A \[(\d+)\]/)![1]);
    const source = response.sources.find((s) => s.ref === ref)!;
    expect(source).toMatchObject({ manualId: 'px-200', manualTitle: 'PX-200 Pump Manual', page: 1, chunkId: 'px-200:1:0' });
    // The chunk's line, then the quoted values boxed inside it (placed on their glyphs when the preview opens).
    expect(source.bboxes!.filter((b) => !isValueBox(b))).toEqual([bboxFor('px-200:1:0')]);
    expect(source.bboxes!.filter(isValueBox).map((b) => b.value)).toContain('6.8 A');
    expect(eventsOf(events, 'check')[0]).toMatchObject({ method: 'lexical', unsupported: [] });
    expect(eventsOf(events, 'done')[0].status).toBe('done');
    expect(eventsOf(events, 'metrics')[0].path.at(-1)).toBe('text_response');
  });

  it('declines a question the manuals do not answer', async () => {
    const events = await ask('What is the warranty period?');
    const response = eventsOf(events, 'response')[0];
    expect(response.text).toMatch(/^I could not find a stated value for the warranty period; these pages are the closest match/);
    expect(response.declined).toBe(true);
    // The pages form: the sources are the closest pages shown, not citations of a quote.
    expect(response.mode).toBe('pages');
    expect(response.sources.map((s) => s.page)).toEqual(response.pages!.map((p) => p.page));
    expect(response.text).not.toMatch(/\d/);
    // The closest pages form: up to 3 distinct pages of the evidence, each linked as a citation would be.
    expect(response.mode).toBe('pages');
    expect(response.pages!.length).toBeGreaterThanOrEqual(1);
    expect(response.pages!.length).toBeLessThanOrEqual(3);
    expect(new Set(response.pages!.map((p) => `${p.manualId}#${p.page}`)).size).toBe(response.pages!.length);
    for (const p of response.pages!) {
      expect(p.previewUrl).toMatch(new RegExp(`^/manuals/${encodeURIComponent(p.manualId)}\\?page=${p.page}(&hl=|$)`));
      expect(p.snippet.length).toBeGreaterThan(0);
      expect(p.snippet.length).toBeLessThanOrEqual(201);
    }
    // nothing to check in a decline
    expect(eventsOf(events, 'check')).toHaveLength(0);
  });

  it('error code question: the troubleshooting skill runs hybrid search and the answer explains the code', async () => {
    const events = await ask('The pump shows error code E07, what does it mean?');
    expect(eventsOf(events, 'skill')[0].name).toBe('troubleshoot-error-code');
    expect(eventsOf(events, 'decision')[0]).toMatchObject({ tool: 'hybrid_search', decider: 'skill' });
    expect(eventsOf(events, 'response')[0].text).toMatch(/Error code E07 indicates low inlet pressure/);
  });

  it('visual question offline: fused search with its page leg, VLM unavailable with its reason, answer from the passages', async () => {
    const events = await ask('Which wire goes to terminal N in the wiring diagram?');
    const decisions = eventsOf(events, 'decision');
    expect(decisions[0].tool).toBe('hybrid_search');
    expect(decisions[1].unavailable).toContainEqual({ tool: 'visual_interpretation', reason: 'page images are not available in this deployment' });
    const response = eventsOf(events, 'response')[0];
    expect(response.text).toContain('terminal N the blue wire');
    expect(response.sources.some((s) => s.manualId === 'px-200' && s.page === 4)).toBe(true);
  });

  it('visual question with a VLM and page images: the VLM reads the best page from the store results', async () => {
    const { client: vlm, model } = mockLlm({ generate: [textResult('Terminal N takes the blue wire.')] });
    const events = await collectTurn({
      tools: defaultTools,
      question: 'Which wire goes to terminal N in the wiring diagram?',
      services: agentServices({ ...fx.deps, policies: WRITER_POLICIES, vlm, pageImage: async () => Buffer.from('png') }),
    });
    expect(eventsOf(events, 'decision').map((d) => d.tool)).toEqual(['hybrid_search', 'visual_interpretation', 'text_response']);
    expect(eventsOf(events, 'result')[1].metadata).toMatchObject({ manualId: 'px-200', page: 4 });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(eventsOf(events, 'response')[0].text).toContain('Terminal N takes the blue wire');
  });

  it('respects the manual scope of the chat', async () => {
    const events = await ask('What supply voltage does the board take?', ['cb-9']);
    for (const r of eventsOf(events, 'result')) for (const h of r.hits) expect(h.manualId).toBe('cb-9');
    expect(eventsOf(events, 'response')[0].text).toContain('12 to 24 V DC');
  });
});
