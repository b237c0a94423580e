/**
 * The chat's view of one turn, built by folding the agent's events into it. The same reducer runs
 * in the browser (live stream), on the server (what gets stored) and on restore (stored events),
 * so a reloaded or shared chat renders exactly what was streamed.
 */
import { numberCitations } from '@/lib/answer/citations';
import type { AgentEvent, AnswerMode, ClosestPage, DeviceChoice, EventHit, EventOf, EventSource, TurnMetrics, UnsupportedSentence } from '@/lib/agent/events';
import { isStopword, stem, words } from '@/lib/text/analyze';
import { pageImageLink } from '../text/page-links';
import { cleanName } from '@/lib/text/hygiene';
import { isValueBox, type ValueBox } from '@/lib/answer/value-boxes';
import { valueKinds } from '@/lib/text/quantities';
import type { BBox } from '@/lib/providers/types';

export type TurnStatus = 'running' | 'done' | 'cancelled' | 'failed';

/** A turn as stored (messages row) and as sent to the client on restore or in a share snapshot. */
export interface StoredTurn {
  id: string;
  question: string;
  answer: string;
  /** Every event except response deltas (the answer field holds the text). */
  events: AgentEvent[];
  status: TurnStatus;
  createdAt: number;
  /** The current owner's rating; absent in share snapshots. */
  rating?: 1 | -1 | null;
}

export interface TurnView extends StoredTurn {
  sources: EventSource[];
  declined: boolean;
  partial: boolean;
  unsupported: UnsupportedSentence[];
  checked: { method: 'llm' | 'lexical'; count: number } | null;
  metrics: TurnMetrics | null;
  /** The answer restarted after the LLM failed (extractive fallback). */
  restarted: boolean;
  /** The answer is quoted from the manuals (extractive): shown as written, never read as markdown. */
  literal: boolean;
  /** Which form the reply takes; turns stored before forms existed read as `answer`, shown as they always were. */
  mode: AnswerMode;
  /** The closest pages the reply offers (`pages`; `not_covered` on request), best first. */
  pages: ClosestPage[];
  /** `clarify` ("Which device?"): the devices offered, each with its best page. */
  choices: DeviceChoice[];
  /** The region of the page a stated answer reads (a table, a procedure, a value), shown cropped beside it. */
  region: AnswerRegion | null;
  /** A problem outside the agent (network, refused request), shown instead of an answer. */
  clientError?: string;
}

export function emptyTurn(id: string, question: string, createdAt = Date.now()): TurnView {
  return {
    id,
    question,
    answer: '',
    events: [],
    status: 'running',
    createdAt,
    rating: null,
    sources: [],
    declined: false,
    partial: false,
    unsupported: [],
    checked: null,
    metrics: null,
    restarted: false,
    literal: false,
    mode: 'answer',
    pages: [],
    choices: [],
    region: null,
  };
}

/** Where on its cited page a stated answer reads: the unit's box and the value's, in PDF points from the top-left. */
export interface AnswerRegion {
  ref: number;
  manualId: string;
  page: number;
  kind: string;
  bbox: BBox;
  value: ValueBox | null;
}

/**
 * The region of a stated answer's first source, when the answer reads a structure unit on that
 * page; or, for closest pages shown with a scanned unit to look at, that unit on its page.
 */
function answerRegion(e: EventOf<'response'>): AnswerRegion | null {
  const mode = e.mode ?? 'answer';
  if (mode !== 'answer' && !(mode === 'pages' && e.evidence?.structure)) return null;
  const regions = e.evidence?.regions ?? [];
  const source = (mode === 'answer' ? e.sources.slice(0, 1) : e.sources).find((s) => regions.some((r) => r.manualId === s.manualId && r.page === s.page));
  const g = source && regions.find((r) => r.manualId === source.manualId && r.page === source.page);
  if (!source || !g) return null;
  const [x0, y0, x1, y1] = g.bbox;
  // The value framed: a quantity with its unit before a label or code the quote also holds.
  const values = (source.bboxes ?? []).filter(isValueBox);
  const value = values.find((b) => valueKinds(b.value).size > 0) ?? values[0] ?? null;
  return { ref: source.ref, manualId: source.manualId, page: source.page, kind: g.kind, bbox: { x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, value };
}

/** A reply offers at most this many closest pages (the contract's limit, enforced where they are shown). */
const MAX_CLOSEST_PAGES = 3;
/** …and a clarify at most this many, grouped by device. */
const MAX_CLARIFY_PAGES = 8;

/** Folds one event into the turn (pure: returns a new object). */
export function applyEvent(turn: TurnView, event: AgentEvent): TurnView {
  switch (event.type) {
    case 'response_delta':
      return {
        ...turn,
        answer: event.reset ? event.delta : turn.answer + event.delta,
        restarted: turn.restarted || !!event.reset,
      };
    case 'response':
      return {
        ...turn,
        events: [...turn.events, event],
        answer: event.text,
        sources: event.sources,
        declined: !!event.declined,
        partial: !!event.partial,
        literal: event.method === 'extractive',
        mode: event.mode ?? 'answer',
        // A clarify groups its closest pages by device (two per device offered).
        pages: (event.pages ?? []).slice(0, event.mode === 'clarify' ? MAX_CLARIFY_PAGES : MAX_CLOSEST_PAGES),
        choices: event.choices ?? [],
        region: answerRegion(event),
      };
    case 'check':
      return { ...turn, events: [...turn.events, event], unsupported: event.unsupported, checked: { method: event.method, count: event.checked } };
    case 'metrics': {
      const { type: _type, t: _t, ...metrics } = event;
      return { ...turn, events: [...turn.events, event], metrics };
    }
    case 'done':
      return { ...turn, events: [...turn.events, event], status: event.status };
    default:
      return { ...turn, events: [...turn.events, event] };
  }
}

/** Rebuilds the view of a stored turn. */
export function fromStored(stored: StoredTurn): TurnView {
  let view = emptyTurn(stored.id, stored.question, stored.createdAt);
  for (const e of stored.events) view = applyEvent(view, e);
  return { ...view, answer: stored.answer || view.answer, status: stored.status, rating: stored.rating ?? null };
}

/** Every hit the turn's searches returned, by reference number (citations resolve against these). */
function hitsByRef(events: AgentEvent[]): Map<number, EventHit> {
  const out = new Map<number, EventHit>();
  for (const e of events) if (e.type === 'result') for (const h of e.hits) if (!out.has(h.ref)) out.set(h.ref, h);
  return out;
}

/** A citation target: a source of the answer, or while it streams the hit its number refers to. */
export type CitationTarget = Pick<EventSource, 'ref' | 'manualId' | 'manualTitle' | 'page' | 'chunkId' | 'heading' | 'snippet' | 'bboxes'>;

/** The turn's search hits by the agent's reference number (the trail opens these). */
export function hitTargets(turn: Pick<TurnView, 'events'>): Map<number, CitationTarget> {
  const out = new Map<number, CitationTarget>();
  for (const [ref, h] of hitsByRef(turn.events)) {
    out.set(ref, { ref, manualId: h.manualId, manualTitle: h.manualTitle, page: h.page, chunkId: h.chunkId, heading: h.heading, snippet: h.text ?? '' });
  }
  return out;
}

/**
 * The answer as shown: its text citing [1]..[n] and the sources those numbers open. A finished
 * answer comes numbered from the loop (numbering again changes nothing; answers stored before it
 * get numbered here); a streaming one cites the agent's numbers, numbered the same way against the
 * hits, so its chips keep their numbers when the answer arrives. `answered`: the sources are final.
 */
export function shownAnswer(turn: Pick<TurnView, 'answer' | 'sources' | 'events'>): { text: string; sources: CitationTarget[]; answered: boolean } {
  const answered = turn.events.some((e) => e.type === 'response');
  const { text, sources } = numberCitations<CitationTarget>(turn.answer, answered ? turn.sources : [...hitTargets(turn).values()]);
  return { text, sources, answered };
}

/** The language model failed and the answer was rebuilt from the passages (the response says why). */
export function fellBackToExtractive(turn: Pick<TurnView, 'events' | 'restarted'>): boolean {
  return turn.restarted || turn.events.some((e) => e.type === 'response' && e.method === 'extractive' && !!e.fallback_reason);
}

export function errorEvents(turn: Pick<TurnView, 'events'>): Array<EventOf<'error'>> {
  return turn.events.filter((e): e is EventOf<'error'> => e.type === 'error');
}

/** A session title from its first question: one line, at most ~60 characters, cut at a word. */
export function titleFromQuestion(question: string, maxChars = 60): string {
  const line = cleanName(question);
  if (!line) return 'New chat';
  if (line.length <= maxChars) return line;
  const cut = line.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxChars * 0.5 ? cut.slice(0, space) : cut).replace(/[\s,;:.!?-]+$/, '')}…`;
}

/**
 * The turn with each manual's current title (a manual renamed after the answer shows its new name
 * in the citations and the trail). Manuals not in `titles` keep the title stored with the turn.
 */
export function withCurrentTitles(turn: TurnView, titles: ReadonlyMap<string, string>): TurnView {
  if (!titles.size) return turn;
  const retitle = <H extends { manualId: string; manualTitle?: string }>(h: H): H => {
    const title = titles.get(h.manualId);
    return title && title !== h.manualTitle ? { ...h, manualTitle: title } : h;
  };
  return {
    ...turn,
    sources: turn.sources.map(retitle),
    pages: turn.pages.map(retitle),
    choices: turn.choices.map(retitle),
    events: turn.events.map((e) =>
      e.type === 'result'
        ? { ...e, hits: e.hits.map(retitle) }
        : e.type === 'response'
          ? { ...e, sources: e.sources.map(retitle), ...(e.pages ? { pages: e.pages.map(retitle) } : {}) }
          : e,
    ),
  };
}

/**
 * What a closest-page card opens: the page preview a citation opens, at that page, with the
 * passage its link names (`hl`) highlighted. `ref` numbers the cards 1..n in the preview's badge.
 */
export function closestPageTarget(page: ClosestPage, index: number): CitationTarget {
  const chunkId = new URL(page.previewUrl, 'http://viewer.invalid').searchParams.get('hl') ?? undefined;
  return {
    ref: index + 1,
    manualId: page.manualId,
    ...(page.manualTitle ? { manualTitle: page.manualTitle } : {}),
    page: page.page,
    ...(chunkId ? { chunkId } : {}),
    ...(page.heading ? { heading: page.heading } : {}),
    snippet: page.snippet,
  };
}

/** The thumbnail of a page (the manuals' cached thumb route). */
export function pageThumbUrl(page: Pick<ClosestPage, 'manualId' | 'page'>): string {
  return pageImageLink(page.manualId, page.page, 'thumb');
}

// A word as lib/text/analyze reads one: letters and digits, inner dots, dashes, plus, slash kept.
const SNIPPET_WORD = /[\p{L}\p{N}]+(?:[.\-+/_][\p{L}\p{N}]+)*/gu;

/**
 * The snippet cut into runs of text, `mark` on the words the question asks about (the same stems
 * the search matches: "torques" marks "torque"; stop words never). Plain strings: the viewer
 * renders them as text, so nothing in a snippet is ever read as HTML.
 */
export function markQuestionWords(snippet: string, question: string): Array<{ text: string; mark: boolean }> {
  const asked = new Set(
    words(question)
      .filter((w) => !isStopword(w) && w.length > 1)
      .map(stem),
  );
  const runs: Array<{ text: string; mark: boolean }> = [];
  const push = (text: string, mark: boolean) => {
    if (!text) return;
    const last = runs.at(-1);
    if (last && last.mark === mark && !mark) last.text += text;
    else runs.push({ text, mark });
  };
  let at = 0;
  for (const m of snippet.matchAll(SNIPPET_WORD)) {
    const [word] = words(m[0]);
    const hit = !!word && !isStopword(word) && asked.has(stem(word));
    push(snippet.slice(at, m.index), false);
    push(m[0], hit);
    at = m.index + m[0].length;
  }
  push(snippet.slice(at), false);
  return runs;
}

/**
 * The turn as copied (markdown): the answer; for the closest-pages and not-covered forms, the
 * sentence and then each page offered, so a pasted copy still says where to look.
 */
export function copyTextOf(turn: Pick<TurnView, 'mode' | 'pages'>, answerText: string): string {
  if (turn.mode === 'answer' || !turn.pages.length) return answerText;
  const lines = turn.pages.map((p) => `- ${p.manualTitle ?? 'Manual'}, page ${p.page}${p.heading ? ` — ${p.heading}` : ''}: "${p.snippet}"`);
  return [answerText, '', turn.mode === 'pages' ? 'Closest pages:' : 'Closest pages (not an answer):', ...lines].join('\n');
}
