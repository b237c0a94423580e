'use client';

import { createContext, memo, useContext, useMemo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import type { UnsupportedSentence } from '@/lib/agent/events';
import { sourceLabel } from '@/lib/answer/citations';
import { literalMarkdown, rehypeCitations, rehypeUnsupported, remarkPlugins } from '@/lib/chat/markdown';
import type { CitationTarget } from '@/lib/chat/view';
import { ImageAsText, LinkAsText } from '@/lib/security/untrusted-links';

interface CitationContextValue {
  targets: Map<number, CitationTarget>;
  open: (ref: number) => void;
}

const CitationContext = createContext<CitationContextValue>({ targets: new Map(), open: () => {} });

function CitationChip({ refNumber }: { refNumber: number }) {
  const { targets, open } = useContext(CitationContext);
  const target = targets.get(refNumber);
  const shown = target?.ref ?? refNumber;
  const heading = sourceLabel(target?.heading);
  const label = target ? `${target.manualTitle ?? 'Manual'}, page ${target.page}${heading ? ` — ${heading}` : ''}` : 'Source not found';
  return (
    <button
      type="button"
      data-testid="citation"
      data-ref={shown}
      disabled={!target}
      onClick={() => open(refNumber)}
      title={label}
      aria-label={`Source ${shown}: ${label}`}
      className="mx-0.5 inline-flex h-[1.15rem] min-w-[1.15rem] translate-y-[-1px] items-center justify-center rounded-md bg-brand-50 px-1 align-middle font-mono text-[11px] font-semibold text-brand-700 ring-1 ring-brand-100 transition-colors hover:bg-brand-100 disabled:cursor-not-allowed disabled:bg-zinc-100 disabled:text-zinc-400 disabled:ring-zinc-200 dark:bg-brand-500/15 dark:text-brand-100 dark:ring-brand-500/30 dark:hover:bg-brand-500/25 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-500 dark:disabled:ring-zinc-700"
    >
      {shown}
    </button>
  );
}

type WithData = Record<string, unknown> & { node?: unknown; children?: React.ReactNode };

const components: Components = {
  cite: (props) => {
    const ref = Number((props as WithData)['data-ref']);
    return Number.isFinite(ref) ? <CitationChip refNumber={ref} /> : <cite>{props.children}</cite>;
  },
  mark: (props) => {
    const reason = (props as WithData)['data-reason'];
    return (
      <mark
        data-testid="unsupported"
        title={typeof reason === 'string' ? `Not supported by its source: ${reason}` : undefined}
        className="rounded-sm bg-transparent text-inherit underline decoration-amber-500 decoration-wavy decoration-1 underline-offset-[3px]"
      >
        {props.children}
      </mark>
    );
  },
  // Links and images in answers come from untrusted manuals: shown as text (lib/security/untrusted-links).
  a: LinkAsText,
  img: ImageAsText,
  table: ({ children }) => (
    <div className="my-3 overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
      <table className="w-full text-left text-sm">{children}</table>
    </div>
  ),
};

/** Markdown body styles (no typography plugin): compact, readable, dark-aware. */
const PROSE = [
  'text-[15px] leading-7 text-zinc-800 dark:text-zinc-200 break-words',
  '[&_p]:my-2 [&>*:first-child]:mt-0 [&>*:last-child]:mb-0',
  '[&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-0.5',
  '[&_h1]:mt-4 [&_h1]:mb-2 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-base [&_h2]:font-semibold [&_h3]:mt-3 [&_h3]:mb-1 [&_h3]:font-semibold',
  '[&_strong]:font-semibold [&_blockquote]:border-l-2 [&_blockquote]:border-zinc-300 [&_blockquote]:pl-3 [&_blockquote]:text-zinc-600 dark:[&_blockquote]:border-zinc-700 dark:[&_blockquote]:text-zinc-400',
  '[&_code]:rounded [&_code]:bg-zinc-100 [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[13px] dark:[&_code]:bg-zinc-800',
  '[&_pre]:my-3 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-zinc-100 [&_pre]:p-3 dark:[&_pre]:bg-zinc-900 [&_pre_code]:bg-transparent [&_pre_code]:p-0',
  '[&_th]:bg-zinc-50 [&_th]:px-3 [&_th]:py-1.5 [&_th]:font-medium dark:[&_th]:bg-zinc-900 [&_td]:border-t [&_td]:border-zinc-200 [&_td]:px-3 [&_td]:py-1.5 dark:[&_td]:border-zinc-800',
  '[&_hr]:my-4 [&_hr]:border-zinc-200 dark:[&_hr]:border-zinc-800',
].join(' ');

/**
 * The answer as sanitized GitHub-flavoured markdown with [n] chips and unsupported sentences
 * marked. `literal` (quoted from the manuals): every character is shown as written.
 */
export const AnswerMarkdown = memo(function AnswerMarkdown({
  text,
  literal,
  unsupported,
  targets,
  onOpen,
  streaming,
}: {
  text: string;
  literal: boolean;
  unsupported: UnsupportedSentence[];
  targets: Map<number, CitationTarget>;
  onOpen: (ref: number) => void;
  streaming: boolean;
}) {
  const rehypePlugins = useMemo(
    () => [rehypeSanitize, [rehypeUnsupported, { sentences: unsupported.map((u) => ({ sentence: u.sentence, reason: u.reason })) }], rehypeCitations] as const,
    [unsupported],
  );
  const ctx = useMemo(() => ({ targets, open: onOpen }), [targets, onOpen]);
  return (
    <CitationContext.Provider value={ctx}>
      <div className={PROSE} aria-busy={streaming || undefined}>
        <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins as never} components={components}>
          {literal ? literalMarkdown(text) : text}
        </Markdown>
      </div>
    </CitationContext.Provider>
  );
});
