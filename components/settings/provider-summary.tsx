import { activeProviders } from '@/lib/health';

const ROLE_LABEL = {
  vectorDb: 'Vector DB',
  embeddings: 'Embeddings',
  multiVector: 'Multi-vector',
  llm: 'LLM',
  vlm: 'Vision',
  decider: 'Decisions',
  ocr: 'OCR',
} as const;

const MODE_STYLE = {
  offline: 'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-900',
  local: 'bg-sky-50 text-sky-800 ring-sky-200 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-900',
  cloud: 'bg-violet-50 text-violet-800 ring-violet-200 dark:bg-violet-950 dark:text-violet-200 dark:ring-violet-900',
} as const;

/** Which provider serves each role, as configured (server component: reads the environment). */
export async function ProviderSummary() {
  const providers = await activeProviders();
  return (
    <section aria-labelledby="providers-heading" data-testid="provider-summary" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id="providers-heading" className="mb-3 text-sm font-semibold text-zinc-700 dark:text-zinc-300">
        Providers
      </h2>
      {/* grid-cols-1 (minmax(0, 1fr)): the truncated details must not widen the column past the screen. */}
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
        {(Object.keys(ROLE_LABEL) as Array<keyof typeof ROLE_LABEL>).map((role) => {
          const p = providers[role];
          return (
            <div key={role} className="flex items-start gap-2" data-testid={`provider-${role}`}>
              <dt className="w-24 shrink-0 text-zinc-500">{ROLE_LABEL[role]}</dt>
              <dd className="min-w-0">
                <span className={`mr-2 rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${MODE_STYLE[p.mode]}`}>{p.mode}</span>
                <span className="font-medium">{p.provider}</span>
                <span className="block truncate text-xs text-zinc-500" title={p.detail}>
                  {p.detail}
                </span>
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
