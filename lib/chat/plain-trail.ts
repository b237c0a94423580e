/**
 * The trail in a technician's words: one summary line ("Searched DP800 User's Guide · 3 pages ·
 * 0.8 s") and a few plain steps. Tool ids, deciders, scores and timings stay in the technical
 * view (components/chat/trail.tsx); nothing here names them.
 */
import type { AgentEvent, EventHit, ShownTool } from '@/lib/agent/events';
import type { ProcessingManual } from '@/lib/agent/contract';
import { searchableLabel } from '@/lib/manuals/view';

/** A tool the turn does not describe (an older session, the loop itself): its id, and neutral phrases. */
const unknownTool = (tool: string): ShownTool => ({
  label: tool.replace(/_/g, ' '),
  icon: 'activity',
  done: 'Looked further',
  running: 'Working…',
  noun: 'A step',
});

/** How a tool appears in the trail: as the turn's turn_start event describes it (Tool.display). */
export function shownTool(events: AgentEvent[], tool: string): ShownTool {
  const start = events.find((e) => e.type === 'turn_start');
  return (start?.type === 'turn_start' ? start.tools?.[tool] : undefined) ?? unknownTool(tool);
}

export interface PlainStep {
  /** `question`: the question as it was searched, when it was read as a follow-up; `scope`: which manuals were searched and why. */
  kind: 'question' | 'scope' | 'search' | 'problem' | 'answer';
  text: string;
  /** Pages found by this step, "manual title" → page numbers (ascending). */
  pages?: Array<{ manualTitle: string; pages: number[] }>;
}

function pagesOf(hits: EventHit[]): Array<{ manualTitle: string; pages: number[] }> {
  const by = new Map<string, Set<number>>();
  for (const h of hits) {
    const title = h.manualTitle ?? 'a manual';
    (by.get(title) ?? by.set(title, new Set()).get(title)!).add(h.page);
  }
  return [...by].map(([manualTitle, pages]) => ({ manualTitle, pages: [...pages].sort((a, b) => a - b) }));
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One plain step per tool call (its decision folded with its result or failure). */
export function plainSteps(events: AgentEvent[]): PlainStep[] {
  const steps: PlainStep[] = [];
  let tool: string | null = null;
  for (const e of events) {
    if (e.type === 'turn_start' && e.resolved) {
      steps.push({ kind: 'question', text: `Read as a follow-up: ${e.resolved}` });
    } else if (e.type === 'scope') {
      // Which manuals were searched and why (a named device, the chat's device, the user's pick).
      steps.push({ kind: 'scope', text: e.reason.charAt(0).toUpperCase() + e.reason.slice(1) });
    } else if (e.type === 'decision') {
      tool = e.tool;
      const shown = shownTool(events, e.tool);
      if (shown.end) steps.push({ kind: 'answer', text: shown.done });
    } else if (e.type === 'result') {
      const pages = pagesOf(e.hits);
      const pageCount = pages.reduce((n, p) => n + p.pages.length, 0);
      const what = shownTool(events, tool ?? e.tool).done;
      steps.push({
        kind: 'search',
        text: e.count ? `${what}: found ${plural(e.count, 'match', 'matches')} on ${plural(pageCount, 'page')}` : `${what}: nothing relevant found`,
        pages,
      });
    } else if (e.type === 'response' && e.processing?.length) {
      // Progressive availability: what the answer could not see yet.
      for (const m of e.processing) steps.push({ kind: 'problem', text: processingStep(m) });
    } else if (e.type === 'error') {
      steps.push({
        kind: 'problem',
        text:
          e.tool === 'agent'
            ? 'Something went wrong while answering.'
            : `${shownTool(events, e.tool).noun} did not work${e.recoverable ? '; tried another way' : ''}.`,
      });
    }
  }
  return steps;
}

/** "Acme HX-200 Manual is still processing (searchable through page 40 of 120 · figure labels pending): the answer may be incomplete." */
function processingStep(m: ProcessingManual): string {
  const label = searchableLabel({ status: 'parsing', ...m });
  return `${m.title} is still processing${label ? ` (${label[0].toLowerCase()}${label.slice(1)})` : ''}: the answer may be incomplete.`;
}

/** Titles of the manuals searched: those the hits came from, else the scope's size. */
function searchedWhat(events: AgentEvent[]): string {
  const titles = [...new Set(events.flatMap((e) => (e.type === 'result' ? e.hits.map((h) => h.manualTitle).filter((t): t is string => !!t) : [])))];
  if (titles.length === 1) return titles[0];
  if (titles.length === 2) return `${titles[0]} and ${titles[1]}`;
  if (titles.length > 2) return `${titles.length} manuals`;
  const start = events.find((e) => e.type === 'turn_start');
  const n = start?.type === 'turn_start' ? start.manualIds?.length : undefined;
  return n ? plural(n, 'manual') : 'all manuals';
}

function formatSeconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

type SummaryInput = { events: AgentEvent[]; sources: Array<{ manualId: string; page: number }>; status: string; metrics: { total_ms: number } | null };

/** The summary as what was searched (long manual titles may be cut on screen) and the rest (never cut). */
export function plainSummaryParts(turn: SummaryInput): { what: string; rest: string[] } {
  const cited = new Set(turn.sources.map((s) => `${s.manualId}:${s.page}`));
  const found = new Set(turn.events.flatMap((e) => (e.type === 'result' ? e.hits.map((h) => `${h.manualId}:${h.page}`) : [])));
  const what = `Searched ${searchedWhat(turn.events)}`;
  const parts: string[] = [];
  if (cited.size) parts.push(`cited ${plural(cited.size, 'page')}`);
  else parts.push(found.size ? `looked at ${plural(found.size, 'page')}` : 'nothing found');
  if (turn.metrics) parts.push(formatSeconds(turn.metrics.total_ms));
  if (turn.status === 'cancelled') parts.push('stopped');
  if (turn.events.some((e) => e.type === 'error')) parts.push('a step failed');
  return { what, rest: parts };
}

/** The live line while a turn runs: what the agent is doing now, plainly. */
export function plainNow(events: AgentEvent[]): string {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === 'decision') return shownTool(events, e.tool).running;
    if (e.type === 'turn_start') return 'Reading your question…';
  }
  return 'Working on it…';
}
