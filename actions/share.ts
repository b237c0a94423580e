'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { currentOwnerId, ensureOwnerId } from '@/lib/auth/owner';
import { asAction, ChatError, parseInput, type ActionResult } from '@/lib/chat/errors';
import { ID_PATTERN } from '@/lib/chat/protocol';
import { forkSharedChat, revokeChatShare, shareChat, updateChatShare, type ShareInfo } from '@/lib/chat/service';

const shareSchema = z.object({ sessionId: z.string().regex(ID_PATTERN) });

/** The chat's read-only link: the active one, or a new snapshot as of now. */
export async function shareSession(input: z.input<typeof shareSchema>): Promise<ActionResult<ShareInfo>> {
  return asAction(async () => {
    const { sessionId } = parseInput(shareSchema, input);
    return shareChat(await currentOwnerId(), sessionId);
  });
}

const shareIdSchema = z.object({ shareId: z.string().regex(ID_PATTERN) });

/** The same link now shows the chat as it is now. */
export async function updateShare(input: z.input<typeof shareIdSchema>): Promise<ActionResult<ShareInfo>> {
  return asAction(async () => {
    const { shareId } = parseInput(shareIdSchema, input);
    return updateChatShare(await currentOwnerId(), shareId);
  });
}

export async function revokeShare(input: z.input<typeof shareIdSchema>): Promise<ActionResult> {
  return asAction(async () => {
    const { shareId } = parseInput(shareIdSchema, input);
    await revokeChatShare(await currentOwnerId(), shareId);
    return undefined;
  });
}

/** "Continue in a new chat" (form action on the shared page): forks the snapshot for the viewer. */
export async function forkShare(formData: FormData): Promise<void> {
  const parsed = shareIdSchema.safeParse({ shareId: formData.get('shareId') });
  if (!parsed.success) redirect('/');
  let sessionId: string;
  try {
    sessionId = await forkSharedChat(await ensureOwnerId(), parsed.data.shareId);
  } catch (err) {
    if (err instanceof ChatError && err.code === 'not_found:share') redirect(`/share/${parsed.data.shareId}`);
    throw err;
  }
  redirect(`/chat/${sessionId}`);
}
