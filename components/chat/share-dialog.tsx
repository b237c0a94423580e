'use client';

import { useEffect, useRef, useState } from 'react';
import { revokeShare, shareSession, updateShare } from '@/actions/share';
import type { ShareInfo } from '@/lib/chat/service';
import type { ActionResult } from '@/lib/chat/errors';
import { useModalDialog } from '@/components/ui/use-modal-dialog';
import { formatDateTime } from '@/lib/manuals/view';
import { Icon, Spinner } from '../ui/icons';
import { onlyThisComputer, shareLink } from './share-link';

/**
 * Share: the button opens a dialog that says what sharing does; the link is made only when the
 * owner confirms (it is public to anyone who gets it). Then it shows the read-only link to a snapshot of the chat as of now. The
 * owner can copy it, update the snapshot, or revoke it (the link then answers 404); sharing again
 * after a revoke makes a new link. The link uses PUBLIC_URL when it is set, else the address this
 * browser used; when that is this computer's own (127.0.0.1, localhost) the dialog says so.
 */
export function ShareButton({
  sessionId,
  initial,
  publicUrl,
  disabled,
}: {
  sessionId: string;
  initial: ShareInfo | null;
  publicUrl: string | null;
  disabled?: boolean;
}) {
  const [share, setShare] = useState<ShareInfo | null>(initial);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<null | 'share' | 'update' | 'revoke'>(null);
  const [error, setError] = useState<string | null>(null);
  const [revoked, setRevoked] = useState(false);
  const [copied, setCopied] = useState(false);
  const dialog = useModalDialog(open);
  const linkInput = useRef<HTMLInputElement>(null);
  const newLinkButton = useRef<HTMLButtonElement>(null);
  const [origin, setOrigin] = useState('');

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the origin is only known in the browser
    setOrigin(window.location.origin);
  }, []);

  // The link is what the dialog is for: focus it (selected, ready to copy) once it exists.
  const shareId = share?.id;
  useEffect(() => {
    if (open && shareId) linkInput.current?.focus();
  }, [open, shareId]);
  // Before a link exists, the confirm button has the focus: Enter creates it.
  const createButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open && !shareId && !revoked) createButton.current?.focus();
  }, [open, shareId, revoked]);
  // After a revoke the focused button is gone: move on to the one that makes a new link.
  useEffect(() => {
    if (open && revoked) newLinkButton.current?.focus();
  }, [open, revoked]);

  /** Runs one share action with its button busy: what it returns goes to `onOk`, a failure to the error line. */
  const act = async <T,>(kind: 'share' | 'update' | 'revoke', action: () => Promise<ActionResult<T>>, onOk: (data: T) => void) => {
    setBusy(kind);
    const r = await action();
    setBusy(null);
    if (r.ok) onOk(r.data);
    else setError(r.message);
  };

  const create = () => {
    setError(null);
    return act(
      'share',
      () => shareSession({ sessionId }),
      (data) => {
        setShare(data);
        setRevoked(false);
      },
    );
  };

  const onShareClick = () => {
    setOpen(true);
    setCopied(false);
    setError(null);
  };

  const url = share ? shareLink(publicUrl, origin, share.id) : '';
  // Known before the link exists: the warning belongs next to "Create public link" too.
  const localOnly = origin !== '' && onlyThisComputer(shareLink(publicUrl, origin, 'x'));

  return (
    <>
      <button
        type="button"
        data-testid="share-button"
        onClick={onShareClick}
        disabled={disabled}
        className="inline-flex h-8 items-center gap-1.5 rounded-lg border border-zinc-200 px-2.5 text-[13px] font-medium text-zinc-700 hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-800 dark:text-zinc-300 dark:hover:bg-zinc-800"
      >
        <Icon name="share" className="h-3.5 w-3.5" />
        Share
      </button>
      <dialog
        ref={dialog}
        onClose={() => setOpen(false)}
        onCancel={(e) => {
          e.preventDefault();
          setOpen(false);
        }}
        data-testid="share-dialog"
        aria-labelledby="share-dialog-title"
        className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-2xl border border-zinc-200 bg-white p-5 sm:p-6 text-zinc-900 shadow-2xl backdrop:bg-zinc-950/40 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
      >
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id="share-dialog-title" className="text-lg font-semibold">
              Share this chat
            </h2>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
              Anyone with the link sees a read-only copy of the chat as it is now, with its steps and sources. Later messages are not included.
            </p>
          </div>
          <button
            type="button"
            onClick={() => setOpen(false)}
            aria-label="Close"
            className="rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
          >
            <Icon name="x" />
          </button>
        </div>

        {localOnly && (
          <div
            role="note"
            data-testid="share-local-warning"
            className="mt-4 space-y-1 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
          >
            <p className="font-medium">Only this computer can open this link.</p>
            <p>
              It points to <code className="font-mono text-[13px] break-all">{new URL(shareLink(publicUrl, origin, 'x')).host}</code>, this computer&rsquo;s own
              address. To share with colleagues, set <code className="font-mono text-[13px]">PUBLIC_URL</code> to the address they use (for example{' '}
              <code className="font-mono text-[13px]">http://workshop-pc:3000</code>) and <code className="font-mono text-[13px]">HOST=0.0.0.0</code> so the app
              listens on the network (everyone then signs in), and restart the app.
            </p>
          </div>
        )}

        {revoked ? (
          <div className="mt-5 space-y-3">
            <p data-testid="share-revoked" className="rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-700 dark:bg-zinc-800/60 dark:text-zinc-300">
              The link was revoked: opening it now shows “not found”.
            </p>
            <button
              ref={newLinkButton}
              type="button"
              onClick={create}
              disabled={busy !== null}
              className="inline-flex items-center gap-2 rounded-lg bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-600 disabled:opacity-50"
            >
              {busy === 'share' && <Spinner />}
              Create a new link
            </button>
          </div>
        ) : share ? (
          <div className="mt-5 space-y-3">
            <div className="flex items-center gap-2">
              <div className="flex min-w-0 flex-1 items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 px-2.5 outline-offset-2 outline-brand-500 has-[input:focus-visible]:outline-2 dark:border-zinc-700 dark:bg-zinc-950">
                <Icon name="link" className="h-3.5 w-3.5 text-zinc-600 dark:text-zinc-400" />
                <input
                  ref={linkInput}
                  data-testid="share-link"
                  readOnly
                  value={url}
                  onFocus={(e) => e.currentTarget.select()}
                  aria-label="Share link"
                  className="h-9 min-w-0 flex-1 bg-transparent font-mono text-[13px] outline-none"
                />
              </div>
              <button
                type="button"
                data-testid="copy-share-link"
                onClick={async () => {
                  try {
                    await navigator.clipboard.writeText(url);
                    setCopied(true);
                  } catch {
                    setError('Copy is not available here: select the link and copy it.');
                  }
                }}
                className="inline-flex h-9 shrink-0 items-center gap-1.5 rounded-lg bg-brand-700 px-3 text-sm font-medium text-white hover:bg-brand-600"
              >
                <Icon name={copied ? 'check' : 'copy'} className="h-3.5 w-3.5" />
                {copied ? 'Copied' : 'Copy'}
              </button>
            </div>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Snapshot of {share.messageCount} message{share.messageCount === 1 ? '' : 's'}, taken {formatDateTime(share.createdAt)}.
            </p>
            <div className="flex flex-wrap items-center gap-2 pt-1">
              <button
                type="button"
                data-testid="update-share"
                disabled={busy !== null}
                onClick={() => act('update', () => updateShare({ shareId: share.id }), setShare)}
                className="inline-flex items-center gap-1.5 rounded-lg border border-zinc-200 px-3 py-1.5 text-sm hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
              >
                {busy === 'update' ? <Spinner /> : <Icon name="retry" className="h-3.5 w-3.5" />}
                Update to the current chat
              </button>
              <button
                type="button"
                data-testid="revoke-share"
                disabled={busy !== null}
                onClick={() =>
                  act(
                    'revoke',
                    () => revokeShare({ shareId: share.id }),
                    () => {
                      setShare(null);
                      setRevoked(true);
                    },
                  )
                }
                className="ml-auto inline-flex items-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-50 dark:text-red-400 dark:hover:bg-red-950/40"
              >
                {busy === 'revoke' && <Spinner />}
                Revoke link
              </button>
            </div>
          </div>
        ) : (
          <div className="mt-5 space-y-3" data-testid="share-confirm">
            <p className="text-sm text-zinc-700 dark:text-zinc-300">
              The link is public: whoever has it can read this chat without signing in. You can revoke it at any time.
            </p>
            <div className="flex flex-wrap justify-end gap-2">
              <button
                type="button"
                onClick={() => setOpen(false)}
                className="rounded-lg border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
              >
                Cancel
              </button>
              <button
                type="button"
                ref={createButton}
                data-testid="create-share-link"
                onClick={create}
                disabled={busy !== null}
                className="inline-flex items-center gap-2 rounded-lg bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-600 disabled:opacity-50"
              >
                {busy === 'share' && <Spinner />}
                Create public link
              </button>
            </div>
          </div>
        )}
        {error && <p className="mt-3 text-sm text-red-700 dark:text-red-400">{error}</p>}
      </dialog>
    </>
  );
}
