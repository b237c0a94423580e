'use client';

import { useState } from 'react';
import type { AgentEvent, EventHit, EventOf } from '@/lib/agent/events';
import type { TurnView } from '@/lib/chat/view';
import { Icon, Spinner, type IconName } from '../ui/icons';
import { plainNow, plainSteps, plainSummaryParts } from '@/lib/chat/plain-trail';
import { DECIDER_LABELS, seconds, toolLabel } from './tool-labels';
import { sourceLabel } from '@/lib/answer/citations';

const VISIBLE_HITS = 3;

/**
 * The trail of a turn, collapsed to one plain line ("Searched DP800 User's Guide · cited 3 pages ·
 * 0.8 s", or what the agent is doing now while it runs). It opens into plain steps; the technical
 * detail (tools, deciders, reasons, scores, timings) is one more click away.
 */
export function Trail({ turn, onOpenRef }: { turn: TurnView; onOpenRef?: (ref: number) => void }) {
  const running = turn.status === 'running';
  const [open, setOpen] = useState(false);
  const [technical, setTechnical] = useState(false);
  const events = turn.events.filter((e) => e.type !== 'response' && e.type !== 'done' && e.type !== 'metrics');
  if (!events.length && !running) return null;
  const lastIndex = events.length - 1;
  const steps = plainSteps(turn.events);
  const summary = plainSummaryParts(turn);
  const detailsId = `trail-details-${turn.id}`;

  return (
    <section data-testid="trail" data-state={running ? 'running' : 'done'} className="text-[13px]">
      <button
        type="button"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-controls={detailsId}
        data-testid="trail-toggle"
        className="group flex w-full items-center gap-2 rounded-md py-1 text-left text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
      >
        {running ? <Spinner className="h-3.5 w-3.5 text-brand-600" /> : <Icon name="route" className="h-4 w-4" />}
        <span className="flex min-w-0 font-medium" data-testid="trail-summary" aria-live={running ? 'polite' : undefined}>
          {running ? (
            <span className="truncate">{plainNow(turn.events)}</span>
          ) : (
            <>
              <span className="truncate">{summary.what}</span>
              <span className="shrink-0 whitespace-pre">{summary.rest.map((p) => ` · ${p}`).join('')}</span>
            </>
          )}
        </span>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} className="h-3.5 w-3.5 shrink-0 opacity-70 group-hover:opacity-100" />
      </button>
      <div id={detailsId} hidden={!open} className="mt-1 border-l border-zinc-200 pl-3 dark:border-zinc-800">
        <ol className="space-y-1" data-testid="trail-steps">
          {steps.map((step, i) => (
            <li
              key={i}
              data-testid="trail-step"
              data-kind={step.kind}
              className={`flex items-start gap-2 ${step.kind === 'problem' ? 'text-amber-800 dark:text-amber-300' : 'text-zinc-700 dark:text-zinc-300'}`}
            >
              <span className="mt-[3px] flex h-3.5 w-3.5 shrink-0 items-center justify-center">
                {icon(step.kind === 'problem' ? 'alert' : step.kind === 'answer' ? 'file' : step.kind === 'scope' ? 'book' : 'search')}
              </span>
              <div className="min-w-0">
                {step.text}
                {step.pages && step.pages.length > 0 && (
                  <p className="text-zinc-600 dark:text-zinc-400">
                    {step.pages.map((p) => `${p.manualTitle}: ${p.pages.length === 1 ? 'page' : 'pages'} ${p.pages.join(', ')}`).join(' · ')}
                  </p>
                )}
              </div>
            </li>
          ))}
          {running && steps.length === 0 && <li className="text-zinc-600 dark:text-zinc-400">{plainNow(turn.events)}</li>}
        </ol>
        <button
          type="button"
          onClick={() => setTechnical(!technical)}
          aria-expanded={technical}
          data-testid="trail-details-toggle"
          className="mt-1 text-[12px] text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400"
        >
          {technical ? 'Hide technical details' : 'Technical details'}
        </button>
        <ol hidden={!technical} data-testid="trail-technical" className="mt-1 space-y-0.5">
          {events.map((e, i) => (
            <TrailItem key={i} event={e} turnEvents={turn.events} live={running && i === lastIndex} onOpenRef={onOpenRef} />
          ))}
          {turn.metrics && !running && (
            <li className="flex flex-wrap gap-x-3 gap-y-0.5 pt-1 text-[12px] text-zinc-600 dark:text-zinc-400" data-testid="trail-metrics">
              <span>Total {seconds(turn.metrics.total_ms)}</span>
              {turn.metrics.first_response_ms !== null && <span>first words after {seconds(turn.metrics.first_response_ms)}</span>}
              <span>
                {turn.metrics.iterations} step{turn.metrics.iterations === 1 ? '' : 's'}
              </span>
              {turn.metrics.tokens && <span>{turn.metrics.tokens.total.toLocaleString()} tokens</span>}
            </li>
          )}
        </ol>
      </div>
    </section>
  );
}

function Row({
  icon,
  tone = 'muted',
  children,
  t,
  testId,
  type,
  indent,
}: {
  icon: React.ReactNode;
  tone?: 'muted' | 'strong' | 'error' | 'ok' | 'warn';
  children: React.ReactNode;
  t: number;
  testId: string;
  type: string;
  indent?: boolean;
}) {
  const toneClass = {
    muted: 'text-zinc-500 dark:text-zinc-400',
    strong: 'text-zinc-800 dark:text-zinc-200',
    error: 'text-red-700 dark:text-red-400',
    ok: 'text-emerald-700 dark:text-emerald-400',
    warn: 'text-amber-700 dark:text-amber-400',
  }[tone];
  return (
    <li data-testid={testId} data-type={type} className={`flex items-start gap-2 py-0.5 ${indent ? 'pl-5' : ''} ${toneClass}`}>
      <span className="mt-[3px] flex h-3.5 w-3.5 items-center justify-center">{icon}</span>
      <div className="min-w-0 flex-1">{children}</div>
      <span className="shrink-0 pt-px font-mono text-[11px] tabular-nums text-zinc-600 dark:text-zinc-400" title="Time since the question">
        {(t / 1000).toFixed(2)}s
      </span>
    </li>
  );
}

const icon = (name: IconName) => <Icon name={name} className="h-3.5 w-3.5" />;

function TrailItem({
  event: e,
  turnEvents,
  live,
  onOpenRef,
}: {
  event: AgentEvent;
  /** The whole turn: its start says how each tool is shown. */
  turnEvents: AgentEvent[];
  live: boolean;
  onOpenRef?: (ref: number) => void;
}) {
  switch (e.type) {
    case 'turn_start': {
      const n = e.manualIds?.length;
      return (
        <Row icon={icon('book')} t={e.t} testId="trail-start" type={e.type}>
          Searching {n ? `${n} manual${n === 1 ? '' : 's'}` : 'all manuals'}
        </Row>
      );
    }
    case 'scope':
      return (
        <Row icon={icon('book')} t={e.t} testId="trail-scope" type={e.type}>
          {e.reason.charAt(0).toUpperCase() + e.reason.slice(1)}
        </Row>
      );
    case 'skill':
      return (
        <Row icon={icon('sparkle')} t={e.t} testId="trail-skill" type={e.type}>
          Workflow <span className="font-medium text-zinc-700 dark:text-zinc-300">{e.name}</span>
          <span className="text-zinc-600 dark:text-zinc-400"> — {e.description}</span>
        </Row>
      );
    case 'decision': {
      const { label, icon: name } = toolLabel(turnEvents, e.tool);
      return (
        <Row icon={icon(name)} tone="strong" t={e.t} testId="trail-event" type={e.type}>
          <span className="font-medium">{label}</span>
          <span className="ml-1.5 rounded bg-zinc-100 px-1 py-px text-[10.5px] font-medium uppercase tracking-wide text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
            {DECIDER_LABELS[e.decider] ?? e.decider}
          </span>
          <p className="text-zinc-500 dark:text-zinc-400">{e.reason}</p>
        </Row>
      );
    }
    case 'status':
      return (
        <Row
          icon={live ? <Spinner className="h-3 w-3 text-brand-600" /> : <span className="h-1.5 w-1.5 rounded-full bg-zinc-300 dark:bg-zinc-600" />}
          t={e.t}
          testId="trail-event"
          type={e.type}
          indent
        >
          {e.message}
        </Row>
      );
    case 'result':
      return (
        <Row icon={icon('check')} tone="ok" t={e.t} testId="trail-event" type={e.type} indent>
          <ResultBody event={e} onOpenRef={onOpenRef} />
        </Row>
      );
    case 'error':
      return (
        <Row icon={icon('alert')} tone={e.recoverable ? 'warn' : 'error'} t={e.t} testId="trail-error" type={e.type} indent>
          <span className="font-medium">{toolLabel(turnEvents, e.tool).label} failed:</span> {e.message}
          <p className="text-zinc-500 dark:text-zinc-400">
            {e.tool === 'agent'
              ? 'The answer could not be completed. Retry, or rephrase the question.'
              : e.removed
                ? `Skipped for the rest of this answer${e.suggestion ? `; ${e.suggestion}` : ''}.`
                : (e.suggestion ?? 'The agent will try another way.')}
          </p>
        </Row>
      );
    case 'check':
      return (
        <Row icon={icon('shield')} tone={e.unsupported.length ? 'warn' : 'muted'} t={e.t} testId="trail-check" type={e.type}>
          Checked {e.checked} sentence{e.checked === 1 ? '' : 's'} against their sources
          {e.method === 'llm' ? ' (model judge)' : ' (word match)'}: {e.unsupported.length ? `${e.unsupported.length} not supported` : 'all supported'}
        </Row>
      );
    default:
      return null;
  }
}

function ResultBody({ event: e, onOpenRef }: { event: EventOf<'result'>; onOpenRef?: (ref: number) => void }) {
  const [all, setAll] = useState(false);
  const pages = e.hits.filter((h) => h.kind === 'page');
  const chunks = e.hits.filter((h) => h.kind === 'chunk');
  const shown = all ? chunks : chunks.slice(0, VISIBLE_HITS);
  const noun = chunks.length && pages.length ? 'results' : pages.length ? 'pages' : 'passages';
  return (
    <div>
      <span className="text-zinc-700 dark:text-zinc-300">
        Found {e.count} {e.count === 1 ? noun.replace(/s$/, '') : noun}
      </span>
      <span className="text-zinc-600 dark:text-zinc-400"> · {seconds(e.time_ms)}</span>
      {shown.length > 0 && (
        <ul className="mt-0.5 space-y-px">
          {shown.map((h) => (
            <HitRow key={h.ref} hit={h} onOpenRef={onOpenRef} />
          ))}
        </ul>
      )}
      {chunks.length > VISIBLE_HITS && (
        <button type="button" onClick={() => setAll(!all)} className="text-[12px] text-brand-600 hover:underline dark:text-brand-500">
          {all ? 'Show fewer' : `Show ${chunks.length - VISIBLE_HITS} more`}
        </button>
      )}
      {pages.length > 0 && (
        <div className="mt-1 flex flex-wrap gap-1.5">
          {pages.slice(0, 6).map((h) => (
            <button
              key={h.ref}
              type="button"
              onClick={() => onOpenRef?.(h.ref)}
              data-testid="trail-thumbnail"
              title={`[${h.ref}] ${h.manualTitle ?? 'Manual'} · page ${h.page} · score ${h.score.toFixed(2)}`}
              className="flex flex-col overflow-hidden rounded-md border border-zinc-200 bg-white transition-shadow hover:shadow-md dark:border-zinc-700 dark:bg-zinc-900"
            >
              {h.thumbnailUrl ? (
                // eslint-disable-next-line @next/next/no-img-element -- our own cached thumbnail route
                <img src={h.thumbnailUrl} alt="" loading="lazy" className="h-20 w-auto bg-white" />
              ) : (
                <span className="flex h-20 w-14 items-center justify-center text-zinc-600 dark:text-zinc-400">{icon('image')}</span>
              )}
              <span className="border-t border-zinc-200 px-1.5 py-px text-center text-[10.5px] text-zinc-500 dark:border-zinc-700 dark:text-zinc-400">
                <span className="font-mono">[{h.ref}]</span> p.{h.page}
              </span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function HitRow({ hit: h, onOpenRef }: { hit: EventHit; onOpenRef?: (ref: number) => void }) {
  const leaf = sourceLabel(h.heading);
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpenRef?.(h.ref)}
        className="flex w-full min-w-0 items-baseline gap-1.5 rounded px-1 text-left hover:bg-zinc-100 dark:hover:bg-zinc-800/70"
        title={h.text}
      >
        <span className="font-mono text-[11px] text-zinc-600 dark:text-zinc-400">[{h.ref}]</span>
        <span className="min-w-0 truncate text-zinc-600 dark:text-zinc-300">
          {leaf || h.text?.slice(0, 80) || 'Passage'}
          <span className="text-zinc-600 dark:text-zinc-400">
            {' '}
            · {h.manualTitle ?? 'manual'} · p.{h.page}
          </span>
        </span>
        <span className="ml-auto shrink-0 font-mono text-[11px] tabular-nums text-zinc-600 dark:text-zinc-400">{h.score.toFixed(2)}</span>
      </button>
    </li>
  );
}
