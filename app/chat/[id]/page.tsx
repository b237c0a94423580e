import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Chat } from '@/components/chat/chat';
import { ChatShell } from '@/components/sessions/chat-shell';
import { readerOrSignIn } from '@/lib/auth/access';
import { currentOwnerId } from '@/lib/auth/owner';
import { isChatError } from '@/lib/chat/errors';
import { chatPageContext } from '@/lib/chat/page-data';
import { ID_PATTERN } from '@/lib/chat/protocol';
import { loadChat, type ChatData } from '@/lib/chat/service';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

/** The owner's chat, restored exactly (trail included); anyone else gets 404. */
async function load(id: string): Promise<ChatData | null> {
  await readerOrSignIn(`/chat/${encodeURIComponent(id)}`);
  if (!ID_PATTERN.test(id)) return null;
  try {
    return await loadChat(id, await currentOwnerId());
  } catch (err) {
    if (isChatError(err) && err.code === 'not_found:chat') return null;
    throw err;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const chat = await load((await params).id);
  return { title: chat?.session.title ?? 'Not found', robots: { index: false } };
}

export default async function ChatPage({ params }: Props) {
  const { id } = await params;
  const chat = await load(id);
  if (!chat) notFound();
  const { sessions, ...library } = await chatPageContext(await currentOwnerId(), { examples: chat.turns.length === 0 });
  return (
    <ChatShell sessions={sessions}>
      <Chat
        key={chat.session.id}
        sessionId={chat.session.id}
        initialTitle={chat.session.title}
        initialTurns={chat.turns}
        initialScope={chat.session.scope}
        initialDevice={chat.session.device}
        initialShare={chat.share}
        {...library}
      />
    </ChatShell>
  );
}
