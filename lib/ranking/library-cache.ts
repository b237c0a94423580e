/**
 * The library index of the current DATA_DIR, built from the store on first use and rebuilt when
 * a manual is added, re-ingested or removed (the key is every searchable manual's id and version).
 * Concurrent callers share one build.
 */
import { readCorpusRows, searchableManualVersions } from '../store/corpus';
import { LibraryIndex } from './library-index';

let cached: { key: string; index: Promise<LibraryIndex> } | null = null;

export async function libraryIndex(): Promise<LibraryIndex> {
  const manuals = await searchableManualVersions();
  const key = `${process.env.DATA_DIR ?? ''}|${manuals.map((m) => `${m.id}@${m.version}`).join(',')}`;
  if (cached?.key === key) return cached.index;
  const index = readCorpusRows(manuals.map((m) => m.id)).then(({ pages, chunks }) => new LibraryIndex({ manuals, pages, chunks }));
  cached = { key, index };
  // A failed build is not kept.
  index.catch(() => {
    if (cached?.index === index) cached = null;
  });
  return index;
}
