/**
 * Answers quote untrusted manuals (and a model that read them): a link or image in an answer is
 * shown as plain text with its target, marked external — never something to click or load, so a
 * manual cannot send technicians to a phishing page or beacon out through an image.
 */
import type { ReactNode } from 'react';

export function LinkAsText({ href, children }: { href?: string; children?: ReactNode }) {
  const label = typeof children === 'string' ? children : undefined;
  return (
    <span data-testid="external-link" title="A link quoted from a manual: not opened by the app">
      {children}
      {href && label !== href && <span className="text-zinc-500 dark:text-zinc-400"> (external link: {href})</span>}
    </span>
  );
}

export function ImageAsText({ src, alt }: { src?: string | Blob; alt?: string }) {
  return (
    <span data-testid="external-image" className="text-zinc-500 dark:text-zinc-400">
      [image{alt ? `: ${alt}` : ''}
      {typeof src === 'string' && src ? ` — ${src}` : ''}]
    </span>
  );
}
