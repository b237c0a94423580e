/**
 * The composition root of a turn's AgentServices: the one place the module singletons a turn
 * needs are read (the lib/providers factories, the configuration, the library index cache, the
 * manual store). The loop (lib/agent) and the tools reach them only through the services.
 * Injected dependencies win (tests, eval, bench); anything not injected is loaded lazily, so a
 * turn that never needs the VLM never constructs it, and a role that fails to configure fails only
 * the tools that need it.
 */
import fs from 'node:fs/promises';
import type { PageImageLoader, AgentServices, PendingManual } from '@/lib/agent/contract';
import { SHIPPED_POLICIES, type TurnPolicies } from '@/lib/agent/policies';
import { getProviderConfig } from '@/lib/providers/roles';
import type { DeciderProvider } from '@/lib/providers/descriptor';
import type { Embedder, LlmClient, MultiVectorEmbedder, Reranker, VectorStore } from '@/lib/providers/types';
import type { LibraryIndex } from '@/lib/ranking/library-index';

export interface AgentDeps {
  embedder?: Embedder;
  multiVectorEmbedder?: MultiVectorEmbedder;
  vectorStore?: VectorStore;
  /** null = no LLM (offline), undefined = from configuration. */
  llm?: LlmClient | null;
  vlm?: LlmClient | null;
  /** null = no reranker; undefined = from configuration. */
  reranker?: Reranker | null;
  /** PNG bytes of a page; null = no page images (visual interpretation unavailable). */
  pageImage?: PageImageLoader | null;
  manualTitle?: (manualId: string) => Promise<string | undefined> | string | undefined;
  /** The library index; undefined = the store's, rebuilt when the library changes. */
  libraryIndex?: () => Promise<LibraryIndex>;
  /** Manuals still being processed; undefined = the store's. */
  pendingManuals?: () => Promise<PendingManual[]>;
  /** The structure units of pages; undefined = the store's. */
  pageUnits?: AgentServices['pageUnits'];
  /** undefined = 'llm' with an injected LLM, 'rules' with none (llm: null), else from configuration. */
  decider?: DeciderProvider;
  /** Policies that differ from the shipped ones (the eval's folds, tests). */
  policies?: Partial<TurnPolicies>;
}

/** Memoises a lazy async value; a failure is remembered too, so a broken role fails fast. */
function lazy<T>(load: () => Promise<T> | T): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= Promise.resolve().then(load));
}

const factories = lazy(() => import('@/lib/providers'));

export function agentServices(deps: AgentDeps = {}): AgentServices {
  const titles = new Map<string, Promise<string | undefined>>();
  const manualTitle = deps.manualTitle ?? defaultManualTitle;
  return {
    embedder: lazy(async () => deps.embedder ?? (await (await factories()).getEmbedder())),
    multiVectorEmbedder: lazy(async () => deps.multiVectorEmbedder ?? (await (await factories()).getMultiVectorEmbedder())),
    vectorStore: lazy(async () => deps.vectorStore ?? (await (await factories()).getVectorStore())),
    llm: lazy(async () => (deps.llm !== undefined ? deps.llm : ((await (await factories()).getLLM()) ?? null))),
    vlm: lazy(async () => (deps.vlm !== undefined ? deps.vlm : ((await (await factories()).getVLM()) ?? null))),
    reranker: lazy(async () =>
      deps.reranker !== undefined
        ? { reranker: deps.reranker, ...(deps.reranker ? {} : { reason: 'not configured for this turn' }) }
        : (await factories()).getReranker(),
    ),
    pageImage: deps.pageImage !== undefined ? deps.pageImage : defaultPageImage,
    manualTitle: (id) => {
      let title = titles.get(id);
      if (!title) {
        // A missing title is cosmetic: never let it fail a search.
        title = Promise.resolve()
          .then(() => manualTitle(id))
          .catch(() => undefined);
        titles.set(id, title);
      }
      return title;
    },
    // Not memoised: the cache keeps the index, and a failed build is retried by the next caller.
    libraryIndex: deps.libraryIndex ?? defaultLibraryIndex,
    // Read when a question names a device no ready manual mentions: the state changes while a turn runs.
    pendingManuals: deps.pendingManuals ?? defaultPendingManuals,
    pageUnits: deps.pageUnits ?? defaultPageUnits,
    decider: deps.decider ?? defaultDecider(deps),
    policies: { ...SHIPPED_POLICIES, ...deps.policies },
  };
}

function defaultDecider(deps: AgentDeps): DeciderProvider {
  if (deps.llm) return 'llm';
  if (deps.llm === null) return 'rules';
  try {
    return getProviderConfig().decider.provider;
  } catch {
    return 'rules';
  }
}

async function defaultLibraryIndex(): Promise<LibraryIndex> {
  const { libraryIndex } = await import('@/lib/ranking/library-cache');
  return libraryIndex();
}

async function defaultPendingManuals(): Promise<PendingManual[]> {
  const [{ listPendingManuals }, { overallPercent }] = await Promise.all([import('@/lib/store/manuals'), import('@/lib/manuals/view')]);
  // The percent the Manuals page shows for it.
  return (await listPendingManuals()).map((m) => ({
    id: m.id,
    title: m.title,
    fileName: m.fileName,
    percent: overallPercent(m),
    searchablePages: m.searchablePages,
    pageCount: m.pageCount,
    figureLabels: m.figureLabels,
  }));
}

async function defaultPageUnits(pages: ReadonlyArray<{ manualId: string; page: number }>) {
  const { listUnitsOfPage } = await import('@/lib/store/units');
  const rows = await Promise.all(pages.map((p) => listUnitsOfPage(p.manualId, p.page)));
  // A unit read for one page carries that page (a table continued from the page before included).
  return rows.flatMap((list, i) =>
    list.map((u) => ({
      manualId: u.manualId,
      page: pages[i].page,
      kind: u.kind,
      heading: u.heading,
      text: u.text,
      ocr: u.ocr,
      regions: u.regions,
      data: u.data,
    })),
  );
}

async function defaultManualTitle(manualId: string): Promise<string | undefined> {
  const { getManual } = await import('@/lib/store/manuals');
  return (await getManual(manualId))?.title;
}

/** The rendered page PNG (re-rendered from the source PDF if the file went missing). */
const defaultPageImage: PageImageLoader = async (manualId, page) => {
  const { ensurePageImage } = await import('@/lib/manuals/page-images');
  const file = await ensurePageImage(manualId, page, 'image');
  if (!file) throw new Error(`no page ${page} in manual ${manualId}`);
  return fs.readFile(file);
};
