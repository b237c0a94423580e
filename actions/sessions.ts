'use server';

import { z } from 'zod';
import { currentOwnerId } from '@/lib/auth/owner';
import { asAction, parseInput, type ActionResult } from '@/lib/chat/errors';
import { ID_PATTERN } from '@/lib/chat/protocol';
import { clearChatDevice, deleteChat, listChatSessions, renameChat, type SessionSummary } from '@/lib/chat/service';

const renameSchema = z.object({ sessionId: z.string().regex(ID_PATTERN), title: z.string().trim().min(1).max(120) });

export async function renameSession(input: z.input<typeof renameSchema>): Promise<ActionResult<SessionSummary>> {
  return asAction(async () => {
    const { sessionId, title } = parseInput(renameSchema, input, 'A title needs 1 to 120 characters.');
    return renameChat(await currentOwnerId(), sessionId, title);
  });
}

/** One chat of the caller's, by id. */
const sessionSchema = z.object({ sessionId: z.string().regex(ID_PATTERN) });

export async function deleteSession(input: z.input<typeof sessionSchema>): Promise<ActionResult> {
  return asAction(async () => {
    const { sessionId } = parseInput(sessionSchema, input);
    await deleteChat(await currentOwnerId(), sessionId);
    return undefined;
  });
}

/** The owner's chat summary, or null: a question stopped before the server answered may or may not have been stored. */
export async function findSession(input: z.input<typeof sessionSchema>): Promise<ActionResult<SessionSummary | null>> {
  return asAction(async () => {
    const { sessionId } = parseInput(sessionSchema, input);
    const sessions = await listChatSessions(await currentOwnerId());
    return sessions.find((s) => s.id === sessionId) ?? null;
  });
}

/** Clears the device the chat is about (the chip above the input): later questions search every manual. */
export async function clearDevice(input: z.input<typeof sessionSchema>): Promise<ActionResult> {
  return asAction(async () => {
    const { sessionId } = parseInput(sessionSchema, input);
    await clearChatDevice(await currentOwnerId(), sessionId);
    return undefined;
  });
}
