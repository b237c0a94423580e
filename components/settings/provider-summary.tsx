import { activeProviders } from '@/lib/server/health';

type Provider = { provider: string; mode: 'offline' | 'local' | 'cloud'; detail: string };

/** Each role: what it does for the user, and how to get better results where this is not the best. */
const ROLES = {
  vectorDb: { label: 'Search index', does: 'Stores the manuals’ text so questions find the right pages.' },
  embeddings: { label: 'Meaning search', does: 'Finds passages that mean what you asked, not only the same words.' },
  multiVector: { label: 'Page search', does: 'Compares your question with whole pages, tables and figures included.' },
  llm: { label: 'Answer writer', does: 'Writes the answer from the pages found.' },
  vlm: { label: 'Image reading', does: 'Reads diagrams and photos on a page.' },
  reranker: { label: 'Result re-reading', does: 'Reads the best pages again, closely, to put the right one first.' },
  decider: { label: 'Search planner', does: 'Chooses which search to run for each question.' },
  ocr: { label: 'Scan reading (OCR)', does: 'Reads the text of scanned pages and of text inside images.' },
} as const;

/** A provider id in words. */
function providerName(role: keyof typeof ROLES, p: Provider): string {
  const names: Record<string, string> = {
    lancedb: 'LanceDB, on this computer',
    weaviate: p.mode === 'cloud' ? 'Weaviate Cloud' : 'Weaviate server',
    offline: 'Built-in word-piece matching',
    transformers: 'Local language model (transformers.js)',
    gemini: 'Google Gemini',
    'openai-compatible': p.mode === 'cloud' ? 'Model server' : 'Model server on your network',
    colqwen: 'ColQwen page-image model',
    local: 'Built-in, from the page text',
    rules: 'Built-in rules',
    llm: 'The language model',
    tesseract: 'Tesseract (installed program)',
    'tesseract.js': 'Tesseract (built in)',
  };
  if (role === 'reranker' && p.provider === 'transformers') return 'Local cross-encoder model (transformers.js)';
  if (p.provider === 'none') {
    if (role === 'llm') return 'None: answers quote the manual directly';
    if (role === 'vlm') return 'None: images are not read';
    if (role === 'reranker') return 'None: pages keep the order search gave them';
    return 'None';
  }
  return names[p.provider] ?? p.provider;
}

/** Whether this is the best this role can be here, and if not, what would make it better. */
function verdict(role: keyof typeof ROLES, p: Provider): { best: boolean; hint?: string } {
  const fellBack = /fallback|unavailable|missing/i.test(p.detail);
  if (role === 'embeddings' && (p.provider === 'offline' || fellBack)) {
    return { best: false, hint: 'A real embedding model finds more: see “Using a real embedding model” in the README.' };
  }
  if (role === 'llm' && p.provider === 'none') return { best: false, hint: 'Set a Gemini key or a local model server for written answers.' };
  if (role === 'vlm' && p.provider === 'none') return { best: false, hint: 'A vision model (Gemini or a local one) can read diagrams.' };
  if (role === 'multiVector' && p.provider !== 'colqwen') return { best: false, hint: 'A ColQwen worker (COLQWEN_URL) searches the page images themselves.' };
  if (role === 'decider' && p.provider === 'rules') return { best: true, hint: 'A language model can plan searches too, when one is set.' };
  if (role === 'ocr' && p.provider === 'tesseract.js') return { best: false, hint: 'Installing tesseract-ocr reads scans about three times faster.' };
  if (role === 'reranker' && p.provider === 'none')
    return { best: false, hint: 'A cross-encoder model (RERANKER_MODEL) puts the right page first more often: see “Reranker” in the README.' };
  return { best: !fellBack };
}

/**
 * Why a configured model is not the one running: the embedder's fallback reason, the reranker's
 * "off: …", an engine that could not start. Null when it runs as configured.
 */
function notLoadedReason(p: Provider): string | null {
  const m = /(?:^|\s)(?:— )?(fallback|off|unavailable):\s*(.+)$/is.exec(p.detail);
  if (m) return m[2].trim();
  return p.provider === 'unavailable' ? p.detail : null;
}

/** Which provider serves each role, in the user's words (server component: reads the environment). */
export async function ProviderSummary() {
  const providers = (await activeProviders()) as Record<keyof typeof ROLES, Provider>;
  return (
    <section aria-labelledby="providers-heading" data-testid="provider-summary" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id="providers-heading" className="mb-1 text-sm font-semibold text-zinc-800 dark:text-zinc-200">
        What runs your searches and answers
      </h2>
      <p className="mb-3 text-xs text-zinc-600 dark:text-zinc-400">Everything marked “on this computer” works without a network.</p>
      {/* grid-cols-1 (minmax(0, 1fr)): long details must not widen the column past the screen. */}
      <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
        {(Object.keys(ROLES) as Array<keyof typeof ROLES>).map((role) => {
          const p = providers[role];
          const v = verdict(role, p);
          const reason = notLoadedReason(p);
          return (
            <div key={role} className="min-w-0" data-testid={`provider-${role}`}>
              <dt className="font-medium text-zinc-800 dark:text-zinc-200">
                {ROLES[role].label}
                {p.provider !== 'none' && (
                  <span className="ml-2 text-xs font-normal text-zinc-600 dark:text-zinc-400">
                    {p.mode === 'cloud' ? 'cloud' : p.mode === 'local' ? 'your server' : 'on this computer'}
                  </span>
                )}
              </dt>
              <dd className="min-w-0 text-zinc-700 dark:text-zinc-300">
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">{ROLES[role].does}</span>
                <span data-testid="provider-name">{providerName(role, p)}</span>
                <span
                  data-testid="provider-verdict"
                  className={`ml-2 rounded px-1.5 py-0.5 text-xs ring-1 ring-inset ${
                    v.best
                      ? 'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-900'
                      : 'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-900'
                  }`}
                >
                  {v.best ? 'best available here' : 'basic'}
                </span>
                {reason && (
                  <span className="block text-xs text-amber-900 dark:text-amber-200" data-testid="provider-reason">
                    Not loaded: <span className="wrap-anywhere">{reason}</span>
                  </span>
                )}
                {v.hint && <span className="block text-xs text-zinc-600 dark:text-zinc-400">{v.hint}</span>}
                <details className="text-xs text-zinc-600 dark:text-zinc-400">
                  <summary className="cursor-pointer">Technical detail</summary>
                  <span className="wrap-anywhere">{p.detail}</span>
                </details>
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
