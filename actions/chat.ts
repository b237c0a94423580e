'use server';

import { z } from 'zod';
import { AccessError, requireReader } from '@/lib/auth/access';
import { currentOwnerId } from '@/lib/auth/owner';
import { asAction, ChatError, parseInput, type ActionResult } from '@/lib/chat/errors';
import { ID_PATTERN } from '@/lib/chat/protocol';
import { MAX_VALUE_BOXES } from '@/lib/answer/value-boxes';
import { cancelAnswer, pagePreview, rateAnswer, type PagePreview } from '@/lib/chat/service';

const id = z.string().regex(ID_PATTERN);

const cancelSchema = z.object({ messageId: id });

/** Stop: aborts the running turn; its stream then ends with status 'cancelled'. */
export async function cancelTurn(input: z.input<typeof cancelSchema>): Promise<ActionResult<{ aborted: boolean }>> {
  return asAction(async () => {
    const { messageId } = parseInput(cancelSchema, input);
    return cancelAnswer(await currentOwnerId(), messageId);
  });
}

const rateSchema = z.object({ messageId: id, rating: z.union([z.literal(1), z.literal(-1), z.null()]) });

/** Thumbs up / down (or clear) on an answer of one's own chat. */
export async function rateTurn(input: z.input<typeof rateSchema>): Promise<ActionResult> {
  return asAction(async () => {
    const { messageId, rating } = parseInput(rateSchema, input);
    await rateAnswer(await currentOwnerId(), messageId, rating);
    return undefined;
  });
}

const previewSchema = z.object({
  manualId: z.string().min(1).max(100),
  page: z.number().int().positive().max(100_000),
  chunkId: z.string().min(1).max(200).optional(),
  // The citation's quoted values with their estimated boxes (lib/answer/value-boxes.ts MAX_VALUE_BOXES).
  values: z
    .array(
      z.object({
        value: z.string().min(1).max(100),
        x: z.number().finite(),
        y: z.number().finite(),
        w: z.number().finite().nonnegative(),
        h: z.number().finite().nonnegative(),
      }),
    )
    .max(MAX_VALUE_BOXES)
    .optional(),
});

/**
 * Read-only: page size, the cited chunk's boxes and its quoted values' exact boxes for the citation
 * preview (manuals are shared). Page-derived data: the same reader rule as the page images.
 */
export async function getPagePreview(input: z.input<typeof previewSchema>): Promise<ActionResult<PagePreview>> {
  return asAction(async () => {
    await requireReader().catch((err: unknown) => {
      throw err instanceof AccessError ? new ChatError('unauthorized:chat', err.message) : err;
    });
    const { manualId, page, chunkId, values } = parseInput(previewSchema, input);
    return pagePreview(manualId, page, chunkId, values);
  });
}
