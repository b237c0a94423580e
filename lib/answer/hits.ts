/**
 * What the searches find and the answer cites. These shapes travel from the tools through the
 * environment into events, the sessions DB and the viewer, so they are plain JSON.
 */
import type { BBox } from '@/lib/providers/types';
import { truncate } from '../text/format';
import { viewerLink } from '../text/page-links';

/** Where a hit sits: the fields every hit shape (tool object, event hit, citation) shares. */
interface HitLocation {
  kind: 'chunk' | 'page';
  manualId: string;
  manualTitle?: string;
  page: number;
  chunkId?: string;
  heading?: string;
  previewUrl?: string;
}

/** Where a citation or a page card opens: the manual viewer at the page, the passage highlighted. */
export function viewerUrl(s: { manualId: string; page: number; chunkId?: string }): string {
  return viewerLink(s.manualId, s.page, s.chunkId);
}

/** The hits (or units) of the device a turn is about (`device`: its manuals), or all of them when the turn has none. */
export function ofDevice<T extends { manualId: string }>(hits: readonly T[], device?: readonly string[]): T[] {
  return device?.length ? hits.filter((h) => device.includes(h.manualId)) : [...hits];
}

/** A passage of a manual page, as found by a text search. */
export interface ChunkObject extends HitLocation {
  kind: 'chunk';
  chunkId: string;
  heading: string;
  text: string;
  ocr: boolean;
  bboxes: BBox[];
  score: number;
  /** Set when the multi-vector page search also found this page (hybrid merge). */
  visualScore?: number;
  thumbnailUrl?: string;
}

/** A whole page, as found by the multi-vector (ColQwen-style) search or read by the VLM. */
export interface PageObject extends HitLocation {
  kind: 'page';
  score: number;
  previewUrl: string;
  thumbnailUrl: string;
  /** Page text worth citing: the best passages on the page, or the VLM's reading of it. */
  text?: string;
  /** Best-matching chunk on the page, so a citation can still highlight something. */
  bboxes?: BBox[];
  /** How the text was obtained, e.g. "vlm" for a visual interpretation. */
  textSource?: 'passages' | 'vlm';
}

export type Hit = ChunkObject | PageObject;

/** A hit once it is in the environment: `ref` is the [n] the answer cites. */
export type RefHit = Hit & { ref: number };

/** What a citation [n] points at, for the viewer to open and highlight. */
export interface Source extends HitLocation {
  ref: number;
  snippet: string;
  bboxes?: BBox[];
}

/** A hit as streamed in a result event: its location, score and (shortened) text. */
export interface EventHit extends HitLocation {
  ref: number;
  text?: string;
  score: number;
  thumbnailUrl?: string;
}

/** Manual → question terms that name its device (on most of its pages). */
export type TopicTerms = Record<string, string[]>;

/** "[3] Pump manual p.12 (Specifications > Electrical): text…" */
export function formatHit(h: RefHit, maxChars: number): string {
  const where = `${h.manualTitle ?? h.manualId} p.${h.page}`;
  const heading = h.heading ? ` (${h.heading})` : '';
  const body = h.text ? `: ${truncate(h.text.replace(/\s+/g, ' '), maxChars)}` : h.kind === 'page' ? ': [page image]' : '';
  return `[${h.ref}] ${where}${heading}${body}`;
}

/** What a search found out about a query's model names. */
export interface ModelLookup {
  query: string;
  /** Designation → the library mentions it. */
  known: Record<string, boolean>;
  /** Designation → the other variants of its model the library writes, when it never writes this one. */
  variants?: Record<string, string[]>;
  /** Designation → the manual not ready yet whose title or file name names it, when no ready manual mentions it. */
  notReady?: Record<string, PendingManual>;
}

/**
 * A manual still being processed (queued, parsing … indexing). With no searchable page yet it is
 * "not ready"; with some, the library index holds those pages and an answer from them says the
 * manual is still processing (./word.ts stillProcessingSentence).
 */
export interface PendingManual {
  id?: string;
  title: string;
  fileName: string;
  /** Share of the processing done, 0–100, when known. */
  percent?: number;
  /** Pages 1..N are searchable (progressive availability); 0 or absent: none yet. */
  searchablePages?: number;
  pageCount?: number | null;
  figureLabels?: 'pending' | 'done' | null;
}

/** A tool's result output: what the loop folds into the environment. */
export interface ToolResult {
  type: 'result';
  /** Key under the tool in the environment (tool → result name). */
  name: string;
  objects: Hit[];
  metadata: Record<string, unknown>;
  /** One or two sentences for the decider about what was found. */
  llmMessage: string;
  /** Question terms that name each manual's device; the offline answer weighs them little. */
  topicTerms?: TopicTerms;
  /** What the search found out about its query's model names: the answer's applicability check reads it (./applicability.ts). */
  modelLookup?: ModelLookup;
  /** Ask the loop to shrink the environment's passages after a summary (see summarize). */
  compactEnvironment?: { maxCharsPerHit: number };
}
