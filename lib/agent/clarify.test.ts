/**
 * "Which device?" end to end through the real pipeline (acceptUpload → ingestManual → LanceDB, the
 * offline embedder, the rules decider; nothing mocked): a generated family of six near-identical
 * manuals (lib/sample/family.ts). A question naming a variant is answered from that variant's
 * manual, its first words naming it; one naming none asks "Which device?" with the variants as
 * choices; picking one (the chat's device) answers from it; a scope picked never asks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTools } from '@/tools';
import { agentServices } from '@/lib/services/agent-services';
import { collectTurn, eventsOf, mockLlm, promptText } from '@/lib/agent/testing/turn';
import { ingestManual } from '@/lib/ingest/pipeline';
import { closeIngestStack } from '@/lib/ingest/testing/teardown';
import { acceptUpload } from '@/lib/manuals/service';
import { generateFamily, type FamilyVariant } from '@/lib/sample/family';

async function* bytesOf(data: Uint8Array) {
  yield data;
}

const ids = new Map<string, string>();
let variants: FamilyVariant[] = [];

beforeAll(async () => {
  const family = await generateFamily(6);
  variants = family.map((f) => f.variant);
  for (const f of family) {
    const { manual } = await acceptUpload(bytesOf(f.pdf), f.variant.fileName, 'owner');
    expect((await ingestManual(manual.id))?.status).toBe('ready');
    ids.set(f.variant.model, manual.id);
  }
}, 300_000);

afterAll(closeIngestStack);

const ask = (question: string, extra: Partial<Parameters<typeof collectTurn>[0]> = {}) =>
  collectTurn({
    question,
    tools: defaultTools,
    manualIds: [...ids.values()],
    services: agentServices({ llm: null, vlm: null }),
    options: { skills: [] },
    ...extra,
  });
const responseOf = (events: Awaited<ReturnType<typeof ask>>) => eventsOf(events, 'response').at(-1)!;

describe('near-identical manuals: which device?', () => {
  it('answers a question naming a variant from that variant, its first words naming it', async () => {
    const v = variants[3];
    const events = await ask(`What is the output relay rating of the ${'Korvin'} ${v.model}?`);
    const first = eventsOf(events, 'result')[0].hits[0];
    expect(first.manualId).toBe(ids.get(v.model));
    const r = responseOf(events);
    expect(r.mode).toBe('answer');
    expect(r.text.slice(0, 40)).toContain(v.model);
    expect(r.sources.every((s) => s.manualId === ids.get(v.model))).toBe(true);
    expect(r.text).toContain(v.relayRating);
  });

  it('asks which device when the question names none, with the variants as choices and their pages grouped', async () => {
    const r = responseOf(await ask('What is the output relay rating?'));
    expect(r.mode).toBe('clarify');
    expect(r.text).toMatch(/^Which device\?/);
    expect(r.choices!.length).toBeGreaterThanOrEqual(2);
    const family = new Set(ids.values());
    for (const c of r.choices!) {
      expect(family.has(c.manualId)).toBe(true);
      expect(c.page).toBeGreaterThan(0);
      expect(c.name).toMatch(/TR-6\d0/);
    }
    // The closest pages follow the choices' order, grouped by device.
    const order = r.choices!.map((c) => c.manualId);
    const groups = r.pages!.map((p) => order.indexOf(p.manualId));
    expect([...groups].sort((a, b) => a - b)).toEqual(groups);
    expect(r.sources).toEqual([]);
  });

  it('answers from the picked device once the chat has one, and never asks then', async () => {
    const v = variants[1];
    const id = ids.get(v.model)!;
    const events = await ask('What is the output relay rating?', { device: { manualIds: [id], device: v.model, turn: 1 } });
    const r = responseOf(events);
    expect(r.mode).toBe('answer');
    expect(eventsOf(events, 'result')[0].hits[0].manualId).toBe(id);
    expect(r.text).toContain(v.relayRating);
  });

  it("never states another device's value once the chat has a device: a code only a sibling lists gets its own device's pages", async () => {
    const own = variants[1];
    const sibling = variants[4];
    const [code, meaning] = sibling.errors[2];
    const id = ids.get(own.model)!;
    const events = await ask(`What does error ${code} mean?`, { device: { manualIds: [id], device: own.model, turn: 1 } });
    const r = responseOf(events);
    // The sibling's page is found (so the reader had it to quote) ...
    expect(eventsOf(events, 'result')[0].hits.some((h) => h.manualId === ids.get(sibling.model))).toBe(true);
    // ... but the reply quotes nothing of it.
    expect(r.text).not.toContain(meaning);
    expect(r.mode).not.toBe('answer');
    for (const s of r.sources) expect(s.manualId).toBe(id);
    for (const p of r.pages ?? []) expect(p.manualId).toBe(id);
  });

  it("with a language model, the writer is shown only the chat's device's pages", async () => {
    const own = variants[1];
    const sibling = variants[4];
    const id = ids.get(own.model)!;
    const { client, model } = mockLlm({ stream: ['The manual does not list this code [1].'] });
    const events = await ask(`What does error ${sibling.errors[2][0]} mean?`, {
      device: { manualIds: [id], device: own.model, turn: 1 },
      services: agentServices({ llm: client, vlm: null, decider: 'rules' }),
    });
    expect(eventsOf(events, 'result')[0].hits.some((h) => h.manualId === ids.get(sibling.model))).toBe(true);
    const prompt = promptText(model.doStreamCalls[0]);
    expect(prompt).toContain(own.model);
    expect(prompt).not.toContain(sibling.model);
  });

  it('never asks when the user picked one manual', async () => {
    const id = ids.get(variants[5].model)!;
    const r = responseOf(await ask('What is the output relay rating?', { manualIds: [id] }));
    expect(r.mode).not.toBe('clarify');
    expect(r.choices).toBeUndefined();
  });
});
