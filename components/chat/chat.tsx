'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ShareInfo } from '@/lib/chat/service';
import type { CitationTarget, StoredTurn } from '@/lib/chat/view';
import { useOpenSidebar } from '@/components/sessions/chat-shell';
import { useSessions } from '@/components/sessions/sessions-context';
import { Icon } from '../ui/icons';
import { clearDevice } from '@/actions/sessions';
import { CitationPreview } from './citation-preview';
import { DeviceChip } from './device-chip';
import { Composer, type ComposerHandle } from './composer';
import { EmptyState, type ProcessingManual } from './empty-state';
import type { ManualOption } from './scope-picker';
import { ShareButton } from './share-dialog';
import { Turn } from './turn';
import { useManualChat, type Scope, type StartedInfo } from './use-manual-chat';

export interface ChatProps {
  sessionId: string;
  initialTitle: string | null;
  initialTurns: StoredTurn[];
  initialScope: string[] | null;
  /** The device the chat is about (named by an earlier question), when no scope is picked. */
  initialDevice: { device: string } | null;
  initialShare: ShareInfo | null;
  /** Searchable manuals: ready, or still processing with their ready pages (marked so). */
  manuals: ManualOption[];
  processing: ProcessingManual[];
  failedCount: number;
  examples: string[];
  /** No language model is configured: answers are extractive. */
  offline: boolean;
  /** PUBLIC_URL: where share links point (null: the address this browser used). */
  publicUrl: string | null;
}

/** A chat: the conversation column (turns, live trail, answers) and the composer. */
export function Chat(props: ChatProps) {
  const { sessionId, manuals } = props;
  const sessions = useSessions();
  const openSidebar = useOpenSidebar();
  const [title, setTitle] = useState(props.initialTitle);
  const [preview, setPreview] = useState<CitationTarget | null>(null);
  const [scope, setScope] = useState<Scope>(() => {
    const ready = new Set(manuals.map((m) => m.id));
    const chosen = props.initialScope?.filter((id) => ready.has(id)) ?? [];
    return chosen.length ? chosen : 'all';
  });
  const composer = useRef<ComposerHandle>(null);

  const onStarted = useCallback(
    (info: StartedInfo) => {
      setTitle(info.title);
      sessions.upsert({ id: info.sessionId, title: info.title, updatedAt: Date.now() });
      // A new chat gets its own address without a navigation (the stream keeps running).
      if (window.location.pathname !== `/chat/${info.sessionId}`) window.history.replaceState(null, '', `/chat/${info.sessionId}`);
    },
    [sessions],
  );

  const { turns, sending, send, retry, stop, rate } = useManualChat({ sessionId, initialTurns: props.initialTurns, onStarted });

  // The device context: as stored, then as the latest new turn's scope leaves it, unless the chip was cleared since.
  const storedTurns = useMemo(() => new Set(props.initialTurns.map((t) => t.id)), [props.initialTurns]);
  const last = turns.at(-1);
  const liveScope = last && !storedTurns.has(last.id) ? last.events.findLast((e) => e.type === 'scope') : undefined;
  const source = liveScope ?? 'stored';
  const [cleared, setCleared] = useState<typeof source | null>(null);
  const named = liveScope?.type === 'scope' ? (liveScope.device?.device ?? null) : (props.initialDevice?.device ?? null);
  const device = cleared === source ? null : named;
  const clearContext = useCallback(async () => {
    const result = await clearDevice({ sessionId });
    if (result.ok) {
      setCleared(source);
      composer.current?.focus();
    }
  }, [sessionId, source]);
  const ask = useCallback((q: string) => void send(q, scope), [send, scope]);
  const pickDevice = useCallback((q: string, manualId: string) => void send(q, scope, manualId), [send, scope]);
  const asked = useMemo(() => turns.map((t) => t.question), [turns]);
  const titles = useMemo(() => new Map(manuals.map((m) => [m.id, m.title])), [manuals]);
  const actions = useMemo(
    () => ({ onRate: rate, onRetry: (id: string) => void retry(id, scope), onAsk: ask, onPickDevice: pickDevice }),
    [rate, retry, scope, ask, pickDevice],
  );

  // Follow the answer while it streams, unless the reader scrolled up.
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !pinned.current) return;
    // Follow the answer, but never scroll its question out of view: a long answer is read from the top.
    const question = el.querySelector<HTMLElement>('[data-testid="turn"]:last-child [data-testid="question"]');
    const questionTop = question ? question.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop - 12 : Infinity;
    el.scrollTop = Math.min(el.scrollHeight, questionTop);
  }, [turns]);
  useEffect(() => {
    // A new question always brings the view to the bottom.
    if (sending) pinned.current = true;
  }, [sending]);

  useEffect(() => {
    // Ready to type on arrival; not on touch screens, where focusing pops up the keyboard over the page.
    if (window.matchMedia('(pointer: fine)').matches) composer.current?.focus();
  }, []);

  // Nothing to ask yet but a manual is on its way: look again until it is ready.
  const router = useRouter();
  const waiting = manuals.length === 0 && props.processing.length > 0;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => router.refresh(), 4000);
    return () => clearInterval(timer);
  }, [waiting, router]);

  const hasTurns = turns.length > 0;
  // A rename in the chat list shows here at once.
  const shownTitle = sessions.sessions.find((s) => s.id === sessionId)?.title ?? title;
  const shareable = turns.some((t) => t.status !== 'running' && !t.id.startsWith('pending-'));

  return (
    <div className="flex min-h-0 min-w-0 flex-1 flex-col">
      <div className={`h-12 shrink-0 items-center gap-3 border-b border-zinc-100 px-4 dark:border-zinc-900 ${hasTurns ? 'flex' : 'flex md:hidden'}`}>
        {openSidebar && (
          <button
            type="button"
            onClick={openSidebar}
            aria-label="Show chats"
            data-testid="open-sidebar"
            className="-ml-1.5 rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 md:hidden dark:text-zinc-400 dark:hover:bg-zinc-800"
          >
            <Icon name="menu" />
          </button>
        )}
        {hasTurns ? (
          <h1 className="min-w-0 flex-1 truncate text-sm font-medium text-zinc-800 dark:text-zinc-200" data-testid="chat-title">
            {shownTitle ?? 'New chat'}
          </h1>
        ) : (
          <span className="min-w-0 flex-1 truncate text-sm font-medium text-zinc-500 dark:text-zinc-400">New chat</span>
        )}
        {hasTurns && <ShareButton sessionId={sessionId} initial={props.initialShare} publicUrl={props.publicUrl} disabled={!shareable} />}
      </div>

      <div
        ref={scroller}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        }}
        className="min-h-0 flex-1 overflow-y-auto"
        data-testid="chat-scroller"
      >
        {hasTurns ? (
          <div className="mx-auto w-full max-w-3xl space-y-10 px-4 pb-10 pt-6" data-testid="chat-messages">
            {turns.map((t, i) => (
              <Turn
                key={t.id}
                turn={t}
                titles={titles}
                isLast={i === turns.length - 1}
                asked={asked}
                onOpenSource={setPreview}
                actions={sending ? {} : actions}
              />
            ))}
          </div>
        ) : (
          <div className="flex min-h-full flex-col">
            <EmptyState manuals={manuals} processing={props.processing} failedCount={props.failedCount} examples={props.examples} onAsk={ask} />
          </div>
        )}
      </div>

      <div className="shrink-0 px-4 pb-4 pt-2">
        <div className="mx-auto w-full max-w-3xl">
          {device && scope === 'all' && <DeviceChip device={device} onClear={() => void clearContext()} disabled={sending} />}
          <Composer
            ref={composer}
            sending={sending}
            disabledReason={manuals.length ? null : 'No manual is ready yet: upload one on the Manuals page.'}
            onSend={ask}
            onStop={stop}
            manuals={manuals}
            scope={scope}
            onScopeChange={setScope}
            footnote={
              props.offline ? (
                <span data-testid="offline-note">Offline mode: no language model is configured, so answers quote the manual passages directly.</span>
              ) : (
                'Answers can be wrong: check the cited page before acting on them.'
              )
            }
          />
        </div>
      </div>

      <CitationPreview target={preview} onClose={() => setPreview(null)} />
    </div>
  );
}
