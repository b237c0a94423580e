import { randomUUID } from 'node:crypto';
import { Chat } from '@/components/chat/chat';
import { ChatShell } from '@/components/sessions/chat-shell';
import { readerOrSignIn } from '@/lib/auth/access';
import { currentOwnerId } from '@/lib/auth/owner';
import { chatPageContext } from '@/lib/chat/page-data';

export const dynamic = 'force-dynamic';

/** A new chat. Its id is made here, so the first question creates the session under that id. */
export default async function NewChatPage() {
  await readerOrSignIn('/');
  // The library (ready and processing manuals, example questions, offline) goes to the chat as it is.
  const { sessions, ...library } = await chatPageContext(await currentOwnerId());
  const id = randomUUID();
  return (
    <ChatShell sessions={sessions}>
      <Chat key={id} sessionId={id} initialTitle={null} initialTurns={[]} initialScope={null} initialDevice={null} initialShare={null} {...library} />
    </ChatShell>
  );
}
