'use client';

import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { Icon } from '../ui/icons';
import { ScopePicker, type ManualOption } from './scope-picker';
import type { Scope } from './use-manual-chat';

export interface ComposerHandle {
  focus: () => void;
}

const MAX_HEIGHT = 220;

/** Enter sends, Shift+Enter adds a line, Esc (anywhere) or Stop cancels a running answer. */
export const Composer = forwardRef<
  ComposerHandle,
  {
    sending: boolean;
    disabledReason: string | null;
    onSend: (text: string) => void;
    onStop: () => void;
    manuals: ManualOption[];
    scope: Scope;
    onScopeChange: (s: Scope) => void;
    footnote?: React.ReactNode;
  }
>(function Composer({ sending, disabledReason, onSend, onStop, manuals, scope, onScopeChange, footnote }, ref) {
  const [text, setText] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => ({ focus: () => area.current?.focus() }), []);

  // Grow with the text up to a limit, then scroll.
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`;
  }, [text]);

  // The textarea is disabled while sending, so Esc is listened for on the window.
  useEffect(() => {
    if (!sending) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !document.querySelector('dialog[open]')) {
        e.preventDefault();
        onStop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [sending, onStop]);

  // Back from an answer: ready for the next question.
  const wasSending = useRef(sending);
  useEffect(() => {
    if (wasSending.current && !sending) area.current?.focus();
    wasSending.current = sending;
  }, [sending]);

  const blocked = !!disabledReason;
  const canSend = !sending && !blocked && text.trim().length > 0;
  const submit = () => {
    if (!canSend) return;
    onSend(text.trim());
    setText('');
  };

  return (
    <div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        aria-label="Ask a question"
        data-testid="composer"
        className="rounded-2xl border border-zinc-200 bg-white shadow-sm outline-offset-2 outline-brand-500 transition-shadow focus-within:border-zinc-300 focus-within:shadow-md has-[textarea:focus-visible]:outline-2 dark:border-zinc-800 dark:bg-zinc-900 dark:focus-within:border-zinc-700"
      >
        <label htmlFor="chat-input" className="sr-only">
          Your question
        </label>
        <textarea
          id="chat-input"
          ref={area}
          data-testid="chat-input"
          rows={1}
          value={text}
          disabled={sending || blocked}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
          placeholder={blocked ? (disabledReason ?? '') : sending ? 'Answering… press Esc to stop' : 'Ask about specs, error codes, wiring, procedures…'}
          className="block max-h-[220px] w-full resize-none bg-transparent px-4 pb-1 pt-3.5 text-[15px] leading-6 text-zinc-900 outline-none placeholder:text-zinc-400 focus-visible:outline-none disabled:cursor-not-allowed dark:text-zinc-100 dark:placeholder:text-zinc-500"
        />
        <div className="flex items-center gap-2 px-2 pb-2">
          <ScopePicker manuals={manuals} scope={scope} onChange={onScopeChange} disabled={sending} />
          <div className="ml-auto flex shrink-0 items-center gap-1.5">
            {sending && (
              <button
                type="button"
                data-testid="stop-button"
                onClick={onStop}
                title="Stop (Esc)"
                className="inline-flex h-8 items-center gap-1.5 rounded-lg border border-zinc-200 px-2.5 text-[13px] font-medium text-zinc-700 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
              >
                <Icon name="stop" className="h-3 w-3 fill-current" />
                Stop
              </button>
            )}
            <button
              type="submit"
              data-testid="send-button"
              disabled={!canSend}
              aria-label="Send"
              title="Send (Enter)"
              className="inline-flex h-8 w-8 items-center justify-center rounded-lg bg-brand-600 text-white transition-colors hover:bg-brand-700 disabled:bg-zinc-200 disabled:text-zinc-400 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-600"
            >
              <Icon name="send" className="h-4 w-4" />
            </button>
          </div>
        </div>
      </form>
      {footnote && <div className="mt-2 text-center text-[11.5px] text-zinc-600 dark:text-zinc-400">{footnote}</div>}
    </div>
  );
});
