'use server';

import { z } from 'zod';
import { AccessError, requireReader } from '@/lib/auth/access';
import { asAction, ChatError, parseInput, type ActionResult } from '@/lib/chat/errors';
import { findInManual, type FindResult } from '@/lib/manuals/find';

const findSchema = z.object({
  manualId: z.string().min(1).max(100),
  query: z.string().trim().min(1).max(100),
});

/**
 * Read-only: where a word or number occurs in one manual (page, snippet, its box when known).
 * Page text is page-derived data: the same reader rule as the page images and the preview.
 */
export async function findInManualAction(input: z.input<typeof findSchema>): Promise<ActionResult<FindResult>> {
  return asAction(async () => {
    await requireReader().catch((err: unknown) => {
      throw err instanceof AccessError ? new ChatError('unauthorized:chat', err.message) : err;
    });
    const { manualId, query } = parseInput(findSchema, input, 'Type a word or number to search for (at most 100 characters).');
    const found = await findInManual(manualId, query);
    if (!found) throw new ChatError('not_found:message', 'This manual is no longer in the library.');
    return found;
  });
}
