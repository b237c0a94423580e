import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool } from '@/lib/agent/contract';
import { chunk, collectTurn, eventsOf, offlineDeps, resultOf, scriptedTool } from '@/lib/agent/testing/turn';
import { plainNow, plainSteps } from '@/lib/chat/plain-trail';
import { agentServices } from '@/lib/services/agent-services';
import { defaultTools } from '@/tools';

/** A new search tool as a tool file would write it: nothing else in the app names it. */
const inputs = z.object({ query: z.string().min(1), limit: z.number().int().default(3) });
const glossarySearch: Tool<z.output<typeof inputs>> = {
  name: 'glossary_search',
  display: { label: 'Glossary search', icon: 'book', done: 'Looked up the glossary', running: 'Looking up the glossary…', noun: 'The glossary lookup' },
  defaultInput: (_t, query) => ({ query }),
  // Open questions try it first; the other kinds after the built-in searches.
  searchOrder: { visual: 9, table: 9, factual: 9, general: -1 },
  description: 'Looks a term up in the glossary.',
  status: 'Looking up the glossary…',
  inputs,
  availability: async () => ({ ok: true }),
  async *run(_t, input) {
    yield resultOf([chunk(`Glossary: ${input.query} means the loop runs until the evidence covers the question.`, { page: 2 })]);
  },
};

describe('a new tool is its file plus one row in the registry', () => {
  it('is picked by the offline decider with its default input and shown in the trail by its own words', async () => {
    // The built-in searches stay in the registry; the writer is scripted so the turn needs no library.
    const writer = scriptedTool({ name: 'text_response', end: true, run: () => [{ type: 'response', text: 'It keeps searching.', sources: [] }] });
    const registry = [...defaultTools.filter((t) => !t.end), glossarySearch, writer];
    const events = await collectTurn({
      tools: registry,
      question: 'Why does the agent keep looping over the same steps?',
      services: agentServices(offlineDeps),
      options: { skills: [], decider: 'rules' },
    });

    const decisions = eventsOf(events, 'decision');
    expect(decisions[0]).toMatchObject({
      tool: 'glossary_search',
      decider: 'rules',
      inputs: { query: 'Why does the agent keep looping over the same steps?' },
    });
    expect(decisions.at(-1)!.tool).toBe('text_response');

    expect(eventsOf(events, 'turn_start')[0].tools?.glossary_search).toMatchObject({ label: 'Glossary search', icon: 'book' });
    expect(plainSteps(events).map((s) => s.text)).toContain('Looked up the glossary: found 1 match on 1 page');
    expect(plainNow(events.slice(0, events.indexOf(decisions[0]) + 1))).toBe('Looking up the glossary…');
  });

  it('draws every built-in tool with an icon the UI has', async () => {
    const { isIconName } = await import('@/components/ui/icons');
    for (const tool of defaultTools) expect(isIconName(tool.display.icon), tool.name).toBe(true);
  });
});
