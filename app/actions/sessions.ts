'use server';

import { z } from 'zod';
import { currentOwnerId } from '@/lib/auth/owner';
import { asAction, ChatError, type ActionResult } from '@/lib/chat/errors';
import { ID_PATTERN } from '@/lib/chat/protocol';
import { deleteChat, listChatSessions, renameChat, type SessionSummary } from '@/lib/chat/service';

const renameSchema = z.object({ sessionId: z.string().regex(ID_PATTERN), title: z.string().trim().min(1).max(120) });

export async function renameSession(input: z.input<typeof renameSchema>): Promise<ActionResult<SessionSummary>> {
  return asAction(async () => {
    const parsed = renameSchema.safeParse(input);
    if (!parsed.success) throw new ChatError('bad_request:chat', 'A title needs 1 to 120 characters.');
    return renameChat(await currentOwnerId(), parsed.data.sessionId, parsed.data.title);
  });
}

const deleteSchema = z.object({ sessionId: z.string().regex(ID_PATTERN) });

export async function deleteSession(input: z.input<typeof deleteSchema>): Promise<ActionResult> {
  return asAction(async () => {
    const parsed = deleteSchema.safeParse(input);
    if (!parsed.success) throw new ChatError('bad_request:chat');
    await deleteChat(await currentOwnerId(), parsed.data.sessionId);
    return undefined;
  });
}

const findSchema = z.object({ sessionId: z.string().regex(ID_PATTERN) });

/** The owner's chat summary, or null: a question stopped before the server answered may or may not have been stored. */
export async function findSession(input: z.input<typeof findSchema>): Promise<ActionResult<SessionSummary | null>> {
  return asAction(async () => {
    const parsed = findSchema.safeParse(input);
    if (!parsed.success) throw new ChatError('bad_request:chat');
    const sessions = await listChatSessions(await currentOwnerId());
    return sessions.find((s) => s.id === parsed.data.sessionId) ?? null;
  });
}
