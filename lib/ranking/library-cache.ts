/**
 * The library index of the current DATA_DIR, built from the store on first use and rebuilt when
 * a manual is added, re-ingested or removed (the key is every searchable manual's id and version).
 * Concurrent callers share one build.
 */
import { readCorpusRows, saveDeviceProfile, searchableManualVersions } from '../store/corpus';
import { profileFresh, profilePages, storedProfile } from '../device/identity';
import { terms } from '../text/analyze';
import { LibraryIndex } from './library-index';

let cached: { key: string; index: Promise<LibraryIndex> } | null = null;

/**
 * The terms of every page and passage text of the last build. A manual being ingested changes the
 * key at every step of its progress, and tokenizing the whole library again each time held the
 * server's event loop for seconds (docs/security.md, health under load); with the memo a rebuild
 * tokenizes only the texts that changed. Texts the next build no longer has are dropped.
 */
let termsOfText = new Map<string, string[]>();

/** A build's tokenizer: the last kept build's terms, else `base`; `keep` makes this build's the ones kept. @internal exported for its test */
export function memoTokenizer(base: (text: string) => string[] = terms): { tokenize: (text: string) => string[]; keep: () => void } {
  const next = new Map<string, string[]>();
  return {
    tokenize: (text) => {
      const known = next.get(text) ?? termsOfText.get(text) ?? base(text);
      next.set(text, known);
      return known;
    },
    keep: () => {
      termsOfText = next;
    },
  };
}

export async function libraryIndex(): Promise<LibraryIndex> {
  const manuals = await searchableManualVersions();
  const key = `${process.env.DATA_DIR ?? ''}|${manuals.map((m) => `${m.id}@${m.version}`).join(',')}`;
  if (cached?.key === key) return cached.index;
  const index = readCorpusRows(manuals.map((m) => m.id)).then(async ({ pages, chunks }) => {
    await backfillProfiles(manuals, pages);
    const memo = memoTokenizer();
    const built = new LibraryIndex({ manuals, pages, chunks }, memo.tokenize);
    memo.keep();
    return built;
  });
  cached = { key, index };
  // A failed build is not kept.
  index.catch(() => {
    if (cached?.index === index) cached = null;
  });
  return index;
}

/**
 * Reads and stores the device profile of every manual whose stored one is missing or stale (a
 * manual ingested before profiles were stored, renamed since, or read by an older reader); the
 * ingest pipeline stores it for new manuals.
 */
async function backfillProfiles(
  manuals: Array<{ id: string; title: string; fileName: string; profile: Parameters<typeof profileFresh>[1] }>,
  pages: ReadonlyArray<{ manualId: string; number: number; text: string }>,
): Promise<void> {
  const stale = manuals.filter((m) => !profileFresh(m, m.profile));
  if (!stale.length) return;
  const first = new Map<string, string[]>();
  for (const p of pages) {
    if (!profilePages([p.number]).length) continue;
    const list = first.get(p.manualId) ?? [];
    list[p.number - 1] = p.text;
    first.set(p.manualId, list);
  }
  for (const m of stale) {
    m.profile = storedProfile(
      m,
      [...(first.get(m.id) ?? [])].map((t) => t ?? ''),
    );
    await saveDeviceProfile(m.id, m.profile);
  }
}
