import type { ReactNode } from 'react';

/**
 * A top-level page: a centred column (`width` is its Tailwind max-width class), the page's title
 * (data-testid="page-title", which the browser tests look for) and one line on what it is for.
 */
export function PageFrame({ title, description, width, children }: { title: string; description: ReactNode; width: string; children: ReactNode }) {
  return (
    <div className={`mx-auto w-full ${width} space-y-6 px-4 py-8`}>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="page-title">
          {title}
        </h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
      </div>
      {children}
    </div>
  );
}
