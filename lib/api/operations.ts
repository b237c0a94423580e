/**
 * The manuals library as outside clients see it (MCP tools and resources, POST /api/v1/ask): list
 * the manuals, search passages, read a page (text and image), ask the agent. The rules are the web
 * UI's: every manual in the library is listed (with its status), only READY manuals are searched
 * or asked, and a manual is named by its id (or its exact title).
 */
import fs from 'node:fs/promises';
import { runTurn, type AgentEvent } from '@/lib/agent';
import { agentServices, type AgentDeps } from '@/lib/services/agent-services';
import type { AnswerMode, ClosestPage, DeviceChoice, EventSource } from '@/lib/agent/events';
import { deviceName } from '@/lib/device/name';
import { viewerUrl } from '@/lib/answer/hits';
import { ensurePageImage } from '@/lib/manuals/page-images';
import { isSearchable } from '@/lib/manuals/view';
import { getEmbedder, getVectorStore } from '@/lib/providers';
import { recommendedHybridAlpha } from '@/lib/providers/embeddings';
import { getPage, listManuals, type Manual } from '@/lib/store/manuals';
import { manualLink } from '@/lib/text/page-links';
import { pagePreviewUrl } from '@/lib/agent/contract';
import { defaultTools } from '@/tools';

export class LibraryApiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LibraryApiError';
  }
}

export interface ApiManual {
  id: string;
  title: string;
  fileName: string;
  pages: number | null;
  status: Manual['status'];
  /** Only ready manuals can be searched or asked. */
  ready: boolean;
  url: string;
}

export interface Passage {
  manual: string;
  manualTitle: string;
  page: number;
  heading: string;
  text: string;
  score: number;
  chunkId: string;
  /** The page in the viewer with this passage highlighted. */
  previewUrl: string;
  /** The page as a PNG. */
  imageUrl: string;
}

interface ApiSource {
  ref: number;
  manual: string;
  manualTitle?: string;
  page: number;
  heading?: string;
  snippet: string;
  previewUrl: string;
}

/** A page the `pages` form offers: a source without a reference number. */
type ApiClosestPage = Omit<ApiSource, 'ref'>;

/** A device a `clarify` reply offers: its manual (the `device` to ask again with), its name and its best page. */
interface ApiDeviceChoice extends ApiClosestPage {
  device: string;
}

export interface ApiAnswer {
  answer: string;
  sources: ApiSource[];
  /** The manuals do not cover the question. */
  declined: boolean;
  /** The form of the reply: a quoted answer, the closest pages (the manuals state no value), or a device no ready manual covers. */
  mode?: AnswerMode;
  /** With `pages` (and `not_covered`): the closest pages, best first, at most 3; with `clarify`, grouped by device. */
  pages?: ApiClosestPage[];
  /** With `clarify` ("Which device?"): the candidate devices; ask again with `device` set to one's `manual`. */
  choices?: ApiDeviceChoice[];
  status: 'done' | 'cancelled' | 'failed';
  errors: string[];
}

/** `base` turns the app's paths into links a client can open. */
const absolute = (base: string, p: string) => `${base}${p}`;

/** A page a reply offers (a closest page, a device choice's best page) as the API shows it. */
function apiPage(p: Pick<ClosestPage, 'manualId' | 'manualTitle' | 'page' | 'heading' | 'snippet'>, base: string): ApiClosestPage {
  return {
    manual: p.manualId,
    manualTitle: p.manualTitle,
    page: p.page,
    heading: p.heading,
    snippet: p.snippet,
    previewUrl: absolute(base, viewerUrl({ manualId: p.manualId, page: p.page })),
  };
}

function view(m: Manual, base: string): ApiManual {
  return {
    id: m.id,
    title: m.title,
    fileName: m.fileName,
    pages: m.pageCount,
    status: m.status,
    ready: m.status === 'ready',
    url: absolute(base, manualLink(m.id)),
  };
}

export async function listLibrary(base: string): Promise<ApiManual[]> {
  return (await listManuals()).map((m) => view(m, base));
}

/**
 * Searchable manuals matching the names given (ids or exact titles); all searchable ones when none
 * given. A manual still processing is searched through its ready pages (progressive availability).
 */
export async function resolveManuals(names: string[] | undefined): Promise<Manual[]> {
  const all = await listManuals();
  const ready = all.filter(isSearchable);
  if (!names?.length) {
    if (!ready.length) throw new LibraryApiError('No manual is ready yet: upload one on the Manuals page and wait until it shows "Ready".');
    return ready;
  }
  return names.map((name) => {
    const key = name.trim().toLowerCase();
    const m = all.find((x) => x.id === name) ?? all.find((x) => x.title.toLowerCase() === key);
    if (!m) throw new LibraryApiError(`Unknown manual "${name}": list_manuals shows the ids and titles.`);
    if (!isSearchable(m)) throw new LibraryApiError(`The manual "${m.title}" is not ready (status: ${m.status}).`);
    return m;
  });
}

export interface LibraryDeps {
  agent?: AgentDeps;
}

/** Passages that answer `query`, best first (the hybrid search the agent uses for most questions). */
export async function searchPassages(input: { query: string; manual?: string; k: number }, base: string, deps: LibraryDeps = {}): Promise<Passage[]> {
  const manuals = await resolveManuals(input.manual ? [input.manual] : undefined);
  const titles = new Map(manuals.map((m) => [m.id, m.title]));
  const embedder = deps.agent?.embedder ?? (await getEmbedder());
  const store = deps.agent?.vectorStore ?? (await getVectorStore());
  const vector = await embedder.embedQuery(input.query);
  const hits = await store.hybridSearch(input.query, vector, {
    limit: input.k,
    alpha: recommendedHybridAlpha(embedder),
    filter: { manualIds: manuals.map((m) => m.id) },
  });
  return hits.map((h) => ({
    manual: h.manualId,
    manualTitle: titles.get(h.manualId) ?? h.manualId,
    page: h.page,
    heading: h.heading,
    text: h.text,
    score: Math.round(h.score * 10_000) / 10_000,
    chunkId: h.id,
    previewUrl: absolute(base, viewerUrl({ manualId: h.manualId, page: h.page, chunkId: h.id })),
    imageUrl: absolute(base, pagePreviewUrl(h.manualId, h.page)),
  }));
}

export interface PageContent {
  manual: string;
  manualTitle: string;
  page: number;
  pageCount: number;
  text: string;
  /** True when some of the text came from OCR. */
  ocr: boolean;
  previewUrl: string;
  png: Buffer;
}

export async function readPage(input: { manual: string; page: number }, base: string): Promise<PageContent> {
  const [manual] = await resolveManuals([input.manual]);
  const count = manual.pageCount ?? 0;
  if (input.page < 1 || input.page > count) throw new LibraryApiError(`Page ${input.page} is not in "${manual.title}": it has pages 1 to ${count}.`);
  const row = await getPage(manual.id, input.page);
  const file = await ensurePageImage(manual.id, input.page, 'image');
  if (!row || !file) throw new LibraryApiError(`Page ${input.page} of "${manual.title}" could not be read.`);
  const text = [row.text, row.ocrText].filter((t) => t?.trim()).join('\n\n');
  return {
    manual: manual.id,
    manualTitle: manual.title,
    page: input.page,
    pageCount: count,
    text,
    ocr: row.ocr,
    previewUrl: absolute(base, viewerUrl({ manualId: manual.id, page: input.page })),
    png: await fs.readFile(file),
  };
}

/** One question through the agent (no chat history, nothing stored), its cited answer and sources. */
export async function askAgent(
  input: { question: string; manuals?: string[]; device?: string },
  base: string,
  deps: LibraryDeps = {},
  signal?: AbortSignal,
): Promise<ApiAnswer> {
  const manuals = await resolveManuals(input.manuals);
  // The device picked (a clarify reply's choice): the turn is about it, as a chat whose device is set.
  const picked = input.device ? (await resolveManuals([input.device]))[0] : undefined;
  const device = picked ? { manualIds: [picked.id], device: deviceName(picked.title), turn: 1 } : null;
  const out: ApiAnswer = { answer: '', sources: [], declined: false, status: 'failed', errors: [] };
  let streamed = '';
  for await (const e of runTurn({
    tools: defaultTools,
    question: input.question,
    manualIds: manuals.map((m) => m.id),
    device,
    signal,
    services: agentServices(deps.agent),
  }) as AsyncIterable<AgentEvent>) {
    if (e.type === 'response_delta') streamed = e.reset ? e.delta : streamed + e.delta;
    else if (e.type === 'response') {
      out.answer = e.text;
      out.declined = !!e.declined;
      if (e.mode) out.mode = e.mode;
      if (e.pages?.length) out.pages = e.pages.map((p: ClosestPage) => apiPage(p, base));
      if (e.choices?.length) out.choices = e.choices.map((c: DeviceChoice) => ({ ...apiPage(c, base), device: c.name }));
      out.sources = e.sources.map((s: EventSource) => ({
        ref: s.ref,
        manual: s.manualId,
        manualTitle: s.manualTitle,
        page: s.page,
        heading: s.heading,
        snippet: s.snippet,
        previewUrl: absolute(base, viewerUrl(s)),
      }));
    } else if (e.type === 'error' && !e.recoverable) out.errors.push(e.message);
    else if (e.type === 'done') out.status = e.status;
  }
  out.answer ||= streamed;
  return out;
}
