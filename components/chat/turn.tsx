'use client';

import { useCallback, useMemo, useState } from 'react';
import { followUps } from '@/lib/chat/suggestions';
import { sourceLabel } from '@/lib/answer/citations';
import { copyTextOf, errorEvents, hitTargets, shownAnswer, fellBackToExtractive, withCurrentTitles, type CitationTarget, type TurnView } from '@/lib/chat/view';
import { AnswerMarkdown } from './answer';
import { ClosestPageCards, FormNotice, RevealClosestPages } from './closest-pages';
import { Icon } from '../ui/icons';
import { Trail } from './trail';
import { DeviceChoices } from './device-choices';
import { AnswerRegionCrop } from './answer-region';

export interface TurnActions {
  onRate?: (id: string, rating: 1 | -1 | null) => void;
  onRetry?: (id: string) => void;
  onAsk?: (question: string) => void;
  /** Asks the question again about the picked device (a `clarify` reply's choice); it becomes the chat's device. */
  onPickDevice?: (question: string, manualId: string) => void;
}

/** One question and its answer: trail, markdown with citations, sources, notes and actions. */
const NO_TITLES: ReadonlyMap<string, string> = new Map();

export function Turn({
  turn: storedTurn,
  titles = NO_TITLES,
  isLast,
  readOnly,
  asked,
  onOpenSource,
  actions = {},
}: {
  turn: TurnView;
  /** Current manual titles by id (renames apply to earlier answers too). */
  titles?: ReadonlyMap<string, string>;
  isLast: boolean;
  readOnly?: boolean;
  /** Questions already asked in the chat (follow-ups skip them). */
  asked: string[];
  onOpenSource: (target: CitationTarget) => void;
  actions?: TurnActions;
}) {
  const turn = useMemo(() => withCurrentTitles(storedTurn, titles), [storedTurn, titles]);
  const running = turn.status === 'running';
  // The answer cites [1]..[n] (numbered by the loop; lib/chat/view shownAnswer); the trail's hits
  // keep the agent's own numbers.
  const shown = useMemo(() => shownAnswer(turn), [turn]);
  const targets = useMemo(() => new Map(shown.sources.map((s) => [s.ref, s])), [shown]);
  const sources = shown.answered ? shown.sources : [];
  const hits = useMemo(() => hitTargets(turn), [turn]);
  const open = useCallback(
    (ref: number) => {
      const target = targets.get(ref);
      if (target) onOpenSource(target);
    },
    [targets, onOpenSource],
  );
  // The region keeps the source's own ref; the shown answer renumbers its citations.
  const openSource = useCallback(
    (ref: number) => {
      const source = turn.sources.find((s) => s.ref === ref);
      if (source) onOpenSource(source);
    },
    [turn.sources, onOpenSource],
  );
  const openHit = useCallback(
    (ref: number) => {
      const target = hits.get(ref);
      if (target) onOpenSource(target);
    },
    [hits, onOpenSource],
  );
  const errors = errorEvents(turn);
  const fatal = errors.find((e) => e.tool === 'agent' || !e.recoverable);
  const degraded = fellBackToExtractive(turn);
  const suggestions = useMemo(
    () => (isLast && !readOnly && turn.status === 'done' && !turn.clientError ? followUps(turn.question, turn.events, asked) : []),
    [isLast, readOnly, turn.status, turn.clientError, turn.question, turn.events, asked],
  );

  return (
    <article data-testid="turn" data-status={turn.status} data-message-id={turn.id} className="space-y-3">
      <div className="flex justify-end">
        <p
          data-testid="question"
          className="max-w-[85%] whitespace-pre-wrap rounded-2xl rounded-br-md bg-zinc-100 px-4 py-2.5 text-[15px] leading-6 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100"
        >
          {turn.question}
        </p>
      </div>

      <div className="space-y-2">
        {(turn.answer || !running) && (
          <div data-testid="answer" data-status={turn.status} className="min-h-6">
            {turn.answer && turn.mode !== 'answer' ? (
              <FormNotice mode={turn.mode} text={shown.text} />
            ) : turn.answer ? (
              <AnswerMarkdown text={shown.text} literal={turn.literal} unsupported={turn.unsupported} targets={targets} onOpen={open} streaming={running} />
            ) : turn.clientError ? (
              <Notice tone="error">{turn.clientError}</Notice>
            ) : turn.status === 'cancelled' ? (
              <p className="text-sm italic text-zinc-500 dark:text-zinc-400">Stopped before an answer was written.</p>
            ) : turn.status === 'failed' ? (
              <Notice tone="error">{fatal ? `The answer could not be completed: ${fatal.message}` : 'The answer could not be completed.'}</Notice>
            ) : null}
            {running && turn.answer && <span aria-hidden className="ml-0.5 inline-block h-4 w-1.5 animate-pulse rounded-sm bg-zinc-400 align-text-bottom" />}
          </div>
        )}

        {(turn.mode === 'answer' || turn.mode === 'pages') && turn.region && !running && (
          <AnswerRegionCrop region={turn.region} stated={turn.mode === 'answer'} onOpen={openSource} />
        )}
        {turn.mode === 'pages' && <ClosestPageCards pages={turn.pages} question={turn.question} onOpen={onOpenSource} />}
        {turn.mode === 'clarify' && (
          <DeviceChoices
            choices={turn.choices}
            pages={turn.pages}
            question={turn.question}
            onOpen={onOpenSource}
            onPick={
              isLast && !readOnly && turn.status === 'done' && actions.onPickDevice ? (c) => actions.onPickDevice?.(turn.question, c.manualId) : undefined
            }
          />
        )}
        {turn.mode === 'not_covered' && <RevealClosestPages pages={turn.pages} question={turn.question} onOpen={onOpenSource} />}

        {!running && turn.answer && turn.status === 'cancelled' && (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">Stopped — the answer above is incomplete.</p>
        )}
        {!running && turn.answer && turn.clientError && <Notice tone="error">{turn.clientError}</Notice>}
        {degraded && (
          <Notice tone="warn" testId="degraded-note">
            The language model was unavailable, so this answer quotes the manual passages directly.
          </Notice>
        )}
        {!running && !degraded && errors.length > 0 && turn.status === 'done' && (
          <Notice tone="warn">Some search steps failed (see the steps below); the answer may be incomplete.</Notice>
        )}
        {turn.unsupported.length > 0 && !running && (
          <Notice tone="warn" testId="unsupported-note">
            {turn.unsupported.length === 1 ? '1 sentence is' : `${turn.unsupported.length} sentences are`} not backed by the cited source (underlined). Check
            the page before relying on {turn.unsupported.length === 1 ? 'it' : 'them'}.
          </Notice>
        )}

        {sources.length > 0 && (
          <ul className="flex flex-wrap gap-1.5 pt-1" aria-label="Sources">
            {sources.map((s) => (
              <li key={s.ref}>
                <button
                  type="button"
                  data-testid="source-item"
                  data-ref={s.ref}
                  onClick={() => onOpenSource(s)}
                  className="flex max-w-[280px] items-center gap-1.5 rounded-lg border border-zinc-200 px-2 py-1 text-left text-xs text-zinc-600 hover:border-zinc-300 hover:bg-zinc-50 dark:border-zinc-800 dark:text-zinc-400 dark:hover:border-zinc-700 dark:hover:bg-zinc-900"
                >
                  <span className="font-mono font-semibold text-brand-700 dark:text-brand-100">{s.ref}</span>
                  <span
                    data-testid="source-label"
                    className="truncate"
                    title={`${s.manualTitle ?? 'Manual'}, page ${s.page}${sourceLabel(s.heading) ? ` — ${sourceLabel(s.heading)}` : ''}`}
                  >
                    p.{s.page}
                    {sourceLabel(s.heading) ? ` · ${sourceLabel(s.heading)}` : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}

        <Trail turn={turn} onOpenRef={openHit} />

        {!running && <TurnToolbar turn={turn} copyText={copyTextOf(turn, shown.text)} isLast={isLast} readOnly={readOnly} actions={actions} />}

        {suggestions.length > 0 && actions.onAsk && (
          <div className="flex flex-wrap gap-2 pt-1" aria-label="Follow-up questions">
            {suggestions.map((q) => (
              <button
                key={q}
                type="button"
                data-testid="follow-up"
                onClick={() => actions.onAsk?.(q)}
                className="rounded-full border border-zinc-200 px-3 py-1 text-left text-[13px] text-zinc-700 transition-colors hover:border-brand-500/50 hover:bg-brand-50 dark:border-zinc-800 dark:text-zinc-300 dark:hover:bg-brand-500/10"
              >
                {q}
              </button>
            ))}
          </div>
        )}
      </div>
    </article>
  );
}

function Notice({ tone, children, testId }: { tone: 'warn' | 'error'; children: React.ReactNode; testId?: string }) {
  const cls =
    tone === 'error'
      ? 'border-red-200 bg-red-50 text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-300'
      : 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900/50 dark:bg-amber-950/30 dark:text-amber-200';
  return (
    <p data-testid={testId} className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-[13px] leading-5 ${cls}`}>
      <Icon name="alert" className="mt-0.5 h-3.5 w-3.5" />
      <span>{children}</span>
    </p>
  );
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Plain http on a LAN address has no async clipboard: fall back to a hidden textarea.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

function TurnToolbar({
  turn,
  copyText: answerText,
  isLast,
  readOnly,
  actions,
}: {
  turn: TurnView;
  copyText: string;
  isLast: boolean;
  readOnly?: boolean;
  actions: TurnActions;
}) {
  const [copied, setCopied] = useState(false);
  const btn =
    'inline-flex h-7 items-center gap-1 rounded-md px-1.5 text-zinc-500 transition-colors hover:bg-zinc-100 hover:text-zinc-800 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100';
  const pressed = 'text-brand-600 dark:text-brand-500';
  const answered = !!turn.answer;
  return (
    <div className="flex items-center gap-0.5 text-xs" data-testid="turn-toolbar">
      {answered && (
        <button
          type="button"
          className={btn}
          data-testid="copy-answer"
          title="Copy the answer (markdown)"
          onClick={async () => {
            if (await copyText(answerText)) {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            }
          }}
        >
          <Icon name={copied ? 'check' : 'copy'} className="h-3.5 w-3.5" />
          <span className="sr-only sm:not-sr-only">{copied ? 'Copied' : 'Copy'}</span>
        </button>
      )}
      {!readOnly && actions.onRate && answered && !turn.id.startsWith('pending-') && (
        <>
          <button
            type="button"
            className={`${btn} ${turn.rating === 1 ? pressed : ''}`}
            data-testid="feedback-up"
            aria-pressed={turn.rating === 1}
            title="Good answer"
            onClick={() => actions.onRate?.(turn.id, turn.rating === 1 ? null : 1)}
          >
            <Icon name="thumbUp" className="h-3.5 w-3.5" />
          </button>
          <button
            type="button"
            className={`${btn} ${turn.rating === -1 ? pressed : ''}`}
            data-testid="feedback-down"
            aria-pressed={turn.rating === -1}
            title="Bad answer"
            onClick={() => actions.onRate?.(turn.id, turn.rating === -1 ? null : -1)}
          >
            <Icon name="thumbDown" className="h-3.5 w-3.5" />
          </button>
        </>
      )}
      {!readOnly && isLast && actions.onRetry && (
        <button type="button" className={btn} data-testid="retry-button" title="Ask again" onClick={() => actions.onRetry?.(turn.id)}>
          <Icon name="retry" className="h-3.5 w-3.5" />
          <span className="sr-only sm:not-sr-only">Retry</span>
        </button>
      )}
    </div>
  );
}
