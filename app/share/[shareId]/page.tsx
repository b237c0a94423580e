import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { forkShare } from '@/actions/share';
import { Icon } from '@/components/ui/icons';
import { SharedChat } from '@/components/chat/shared-chat';
import { readerOrSignIn } from '@/lib/auth/access';
import { isChatError } from '@/lib/chat/errors';
import { ID_PATTERN } from '@/lib/chat/protocol';
import { loadSharedChat, type SharedChat as SharedChatData } from '@/lib/chat/service';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ shareId: string }> };

async function load(shareId: string): Promise<SharedChatData | null> {
  // On a network, viewers of a shared chat sign in too.
  await readerOrSignIn(`/share/${encodeURIComponent(shareId)}`);
  if (!ID_PATTERN.test(shareId)) return null;
  try {
    return await loadSharedChat(shareId);
  } catch (err) {
    if (isChatError(err) && err.code === 'not_found:share') return null;
    throw err;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const shared = await load((await params).shareId);
  return { title: shared ? `${shared.title} (shared)` : 'Not found', robots: { index: false, follow: false } };
}

/** A read-only snapshot anyone with the link can read; revoked links are 404. */
export default async function SharedChatPage({ params }: Props) {
  const { shareId } = await params;
  const shared = await load(shareId);
  if (!shared) notFound();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-16 pt-6" data-testid="shared-chat">
      <div className="mb-8 flex flex-col gap-3 rounded-2xl sm:flex-row sm:items-center border border-zinc-200 bg-zinc-50/70 px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900/50">
        <div className="min-w-0 flex-1">
          <h1 className="font-semibold break-words sm:truncate" data-testid="page-title">
            {shared.title}
          </h1>
          <p className="text-[13px] text-zinc-500 dark:text-zinc-400" data-testid="read-only-note">
            Shared chat · read-only snapshot from {new Date(shared.createdAt).toUTCString().replace(/:\d\d GMT$/, ' UTC')}
          </p>
        </div>
        <form action={forkShare} className="shrink-0">
          <input type="hidden" name="shareId" value={shared.id} />
          <button
            type="submit"
            data-testid="fork-button"
            className="inline-flex h-9 items-center gap-2 rounded-lg bg-brand-600 px-3 text-sm font-medium text-white hover:bg-brand-700"
          >
            <Icon name="plus" className="h-4 w-4" />
            Continue in a new chat
          </button>
        </form>
      </div>
      {shared.turns.length ? (
        <SharedChat turns={shared.turns} />
      ) : (
        <p className="text-center text-sm text-zinc-500 dark:text-zinc-400">This chat had no answers when it was shared.</p>
      )}
    </div>
  );
}
