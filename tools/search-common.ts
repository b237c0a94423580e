/**
 * Pieces the three search tools share: the manual filter (the chat's scope always wins), turning
 * provider hits into environment objects, and reading the best passages of a page so a page hit
 * has text to cite.
 */
import { z } from 'zod';
import type { TreeData } from '@/lib/agent/contract';
import type { BBox, ChunkHit, PageHit, SearchFilter } from '@/lib/providers/types';
import { pagePreviewUrl, pageThumbnailUrl, type ChunkObject, type PageObject, type Tool, type ToolContext, type ToolOutput } from '@/lib/agent/contract';

export const queryField = z.string().trim().min(1).max(1000).describe("what to search for, in the manual's words");
export const manualField = z.array(z.string().min(1)).max(50).optional().describe('restrict to these manual ids');

/**
 * The filter a search runs with: the requested manuals, never outside the chat's scope. A request
 * wholly outside the scope comes back as a recoverable error the decider can act on.
 */
function resolveScope(tree: TreeData, requested: string[] | undefined): { filter: SearchFilter | undefined } | { error: ToolOutput } {
  const scope = tree.manualIds?.length ? tree.manualIds : undefined;
  if (!requested?.length) return { filter: scope ? { manualIds: scope } : undefined };
  const allowed = scope ? requested.filter((id) => scope.includes(id)) : requested;
  if (allowed.length === 0) {
    const message = `manual ${requested.join(', ')} is outside this chat's scope (${scope!.join(', ')})`;
    return { error: { type: 'error', message, recoverable: true, suggestion: 'search without the manual filter' } };
  }
  return { filter: { manualIds: allowed } };
}

/**
 * The run of a search tool: the scope check every search starts with (a request outside the
 * chat's scope is a recoverable error), then the search itself with the resulting filter.
 */
export function scopedSearch<I extends { manual?: string[] }>(
  search: (t: TreeData, input: I, ctx: ToolContext, filter: SearchFilter | undefined) => AsyncGenerator<ToolOutput>,
): Tool<I>['run'] {
  return async function* (t, input, ctx) {
    const scope = resolveScope(t, input.manual);
    if ('error' in scope) {
      yield scope.error;
      return;
    }
    yield* search(t, input, ctx, scope.filter);
  };
}

export async function chunkObject(hit: ChunkHit, ctx: ToolContext): Promise<ChunkObject> {
  return {
    kind: 'chunk',
    manualId: hit.manualId,
    manualTitle: await ctx.manualTitle(hit.manualId),
    page: hit.page,
    chunkId: hit.id,
    heading: hit.heading,
    text: hit.text,
    ocr: hit.ocr,
    bboxes: plainBoxes(hit.bboxes),
    score: hit.score,
  };
}

/**
 * A page hit with the passages on that page that best match the query (dense search restricted to
 * the page), so the answer can quote and highlight it. Without a dense vector it stays image-only.
 */
export async function pageObject(hit: PageHit, ctx: ToolContext, queryVector: Float32Array | null): Promise<PageObject> {
  const object: PageObject = {
    kind: 'page',
    manualId: hit.manualId,
    manualTitle: await ctx.manualTitle(hit.manualId),
    page: hit.page,
    score: hit.score,
    previewUrl: pagePreviewUrl(hit.manualId, hit.page),
    thumbnailUrl: pageThumbnailUrl(hit.manualId, hit.page),
  };
  if (!queryVector) return object;
  const store = await ctx.vectorStore();
  const passages = await store.denseSearch(queryVector, {
    limit: 2,
    filter: { manualIds: [hit.manualId], pages: { from: hit.page, to: hit.page } },
    signal: ctx.signal,
  });
  if (passages.length === 0) return object;
  const [best] = passages;
  return {
    ...object,
    text: passages.map((p) => p.text).join('\n'),
    textSource: 'passages',
    chunkId: best.id,
    heading: best.heading,
    bboxes: plainBoxes(best.bboxes),
  };
}

/** Just the box (a store row may carry more), so hits stay small plain JSON. */
const plainBoxes = (boxes: BBox[]): BBox[] => boxes.map(({ x, y, w, h }) => ({ x, y, w, h }));

export const distinctManuals = (objects: Array<{ manualId: string }>) => [...new Set(objects.map((o) => o.manualId))];

export const elapsed = (since: number) => Math.round(performance.now() - since);

/** "5 passages from 2 manuals (pages 3, 7, 12)" */
export function describeFound(objects: Array<{ manualId: string; page: number }>, noun: string): string {
  if (objects.length === 0) return `no ${noun} found`;
  const pages = [...new Set(objects.map((o) => o.page))].slice(0, 8).join(', ');
  const manuals = distinctManuals(objects).length;
  return `${objects.length} ${noun} from ${manuals} manual${manuals === 1 ? '' : 's'} (pages ${pages})`;
}
