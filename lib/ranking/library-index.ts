/**
 * The in-memory lexical index of a library: every page (text layer + OCR), every chunk (heading +
 * text), every page's headings, and each manual as a whole and by its identity (title, file name,
 * cover page). Built from the rows the store already holds (no vector-store round trip) and cached
 * by the caller per library version. All ranking signals in ./features.ts read from it.
 */
import type { Passage } from '../providers/types';
import { Bm25Index } from '../text/bm25';
import { charNgrams, terms, words } from '../text/analyze';
import { modelCore, variantOf, writtenDesignations } from '../device/designations';
import { fileNameText } from '../device/tokens';
import { identitiesByDevice, type StoredProfile } from '../device/identity';
import { valueKinds } from '../text/quantities';

export interface CorpusManual {
  id: string;
  title: string;
  fileName: string;
  /** The stored device profile (lib/device/identity.ts), when the store has one. */
  profile?: StoredProfile | null;
}

export interface CorpusPage {
  manualId: string;
  number: number;
  /** Text layer plus OCR lines (the ingest pipeline merges them). */
  text: string;
}

/** A chunk row: the store's passage shape. */
export type CorpusChunk = Passage;

export interface Corpus {
  manuals: CorpusManual[];
  pages: CorpusPage[];
  chunks: CorpusChunk[];
}

const pageKey = (manualId: string, page: number) => `${manualId}\u0000${page}`;

/** A manual's identity text: the title, the file name's words and the cover page. */
function identityText(manual: CorpusManual, cover: CorpusPage | undefined): string {
  const fileWords = fileNameText(manual.fileName);
  return [manual.title, fileWords, cover?.text ?? ''].join('\n');
}

/** A word that reads as a value ("24v", "87a"), not a model's variant: a number, then a unit. */
const isValue = (w: string) => /^\d/.test(w) && (valueKinds(w).size > 0 || valueKinds(w.replace(/(\d)(\p{L})/u, '$1 $2')).size > 0);

export class LibraryIndex {
  readonly manuals: CorpusManual[];
  readonly manualIndexOf = new Map<string, number>();
  readonly pages: CorpusPage[];
  readonly pageIndexOf = new Map<string, number>();
  readonly chunks: CorpusChunk[];
  /** Chunk indices of each page (by page index). */
  readonly chunksOfPage: number[][];
  /** Distinct terms of each page (by page index). */
  readonly pageTermSets: Array<Set<string>>;
  readonly pageIndex: Bm25Index;
  readonly chunkIndex: Bm25Index;
  readonly headingIndex: Bm25Index;
  readonly manualIndex: Bm25Index;
  readonly identityIndex: Bm25Index;
  /** Per manual, the words of its identity text (title, file name, cover page). */
  readonly identityWords = new Map<string, Set<string>>();
  /** Per manual, the terms of its title and file name. */
  private readonly nameTerms = new Map<string, Set<string>>();
  /**
   * Per manual, BM25 over its own pages: IDF within the manual, so a term on most of its pages
   * (the device's name, the vendor) stops deciding between them. `pages` maps local → page index.
   */
  readonly withinManual = new Map<string, { index: Bm25Index; pages: number[]; localOf: Map<number, number> }>();
  /** Distinct terms of the whole library, for fuzzy (OCR-tolerant) lookups. */
  readonly vocabulary: string[];
  /** Per manual, the median number of distinct terms on its pages: what "a page of text" is there. */
  readonly medianPageTerms = new Map<string, number>();

  /** `tokenize` is `terms` or a memo of it (the cache reuses the terms of unchanged pages across rebuilds). */
  constructor(corpus: Corpus, tokenize: (text: string) => string[] = terms) {
    this.manuals = corpus.manuals;
    this.manuals.forEach((m, i) => this.manualIndexOf.set(m.id, i));
    this.pages = corpus.pages.filter((p) => this.manualIndexOf.has(p.manualId));
    this.pages.forEach((p, i) => this.pageIndexOf.set(pageKey(p.manualId, p.number), i));
    this.chunks = corpus.chunks.filter((c) => this.pageIndexOf.has(pageKey(c.manualId, c.page)));
    this.chunksOfPage = this.pages.map(() => []);
    this.chunks.forEach((c, i) => this.chunksOfPage[this.pageIndexOf.get(pageKey(c.manualId, c.page))!].push(i));

    const pageTerms = this.pages.map((p) => tokenize(p.text));
    this.pageTermSets = pageTerms.map((t) => new Set(t));
    this.pageIndex = new Bm25Index(pageTerms);
    this.chunkIndex = new Bm25Index(this.chunks.map((c) => tokenize(`${c.heading}\n${c.text}`)));
    this.headingIndex = new Bm25Index(this.chunksOfPage.map((list) => terms([...new Set(list.map((i) => this.chunks[i].heading).filter(Boolean))].join('\n'))));

    const manualTerms: string[][] = this.manuals.map(() => []);
    pageTerms.forEach((t, i) => {
      const list = manualTerms[this.manualIndexOf.get(this.pages[i].manualId)!];
      for (const x of t) list.push(x);
    });
    this.manualIndex = new Bm25Index(manualTerms);
    this.identityIndex = new Bm25Index(
      this.manuals.map((m) => {
        const coverIndex = this.pageOf(m.id, 1);
        const cover = coverIndex === undefined ? undefined : this.pages[coverIndex];
        const text = identityText(m, cover);
        this.identityWords.set(m.id, new Set(words(text)));
        this.nameTerms.set(m.id, new Set(terms(identityText(m, undefined))));
        return terms(text);
      }),
    );
    const pagesOfManual = new Map<string, number[]>();
    this.pages.forEach((p, i) => {
      const list = pagesOfManual.get(p.manualId) ?? [];
      list.push(i);
      pagesOfManual.set(p.manualId, list);
    });
    for (const [id, list] of pagesOfManual) {
      this.withinManual.set(id, { index: new Bm25Index(list.map((i) => pageTerms[i])), pages: list, localOf: new Map(list.map((p, local) => [p, local])) });
      const sizes = list.map((i) => this.pageTermSets[i].size).sort((a, b) => a - b);
      this.medianPageTerms.set(id, Math.max(1, sizes[Math.floor(sizes.length / 2)] ?? 1));
    }
    const vocab = new Set<string>();
    for (const set of this.pageTermSets) for (const t of set) vocab.add(t);
    this.vocabulary = [...vocab];
  }

  /** Every word of the pages and identities, hyphens and a model's letter suffix removed, computed on first use. */
  private modelCores?: Set<string>;

  /**
   * Whether the library mentions a word anywhere: on a page or in a manual's identity (title, file
   * name, cover), with or without hyphens ("HX-200" = "HX200") or a variant's letter suffix
   * ("HX200A" = "HX200", "HX200B" = "HX200C"), or as its parts on one page ("HX 200").
   */
  mentions(word: string): boolean {
    if (!this.modelCores) {
      const cores = new Set<string>();
      for (const set of [...this.pageTermSets, ...this.identityWords.values()]) for (const t of set) cores.add(modelCore(t));
      this.modelCores = cores;
    }
    // A designation whose stem is a bare number ("87v", "3015be") counts only as written: "87 V" on a page is a value.
    const variant = variantOf(word);
    if (variant && !/\p{L}/u.test(variant.stem)) return this.designationsWritten().written.has(word.replace(/-/g, ''));
    if (this.modelCores.has(modelCore(word))) return true;
    const parts = word.split('-').filter(Boolean);
    return parts.length > 1 && this.pageTermSets.some((set) => parts.every((p) => set.has(p)));
  }

  /** The designations the library writes (hyphens out, slashed lists expanded) and its variants by stem, computed on first use. */
  private written?: { written: Set<string>; variants: Map<string, Set<string>> };

  private designationsWritten() {
    if (!this.written) {
      const written = new Set<string>();
      const variants = new Map<string, Set<string>>();
      const pageWords = this.pages.map((p) => new Set(words(p.text)));
      for (const set of [...pageWords, ...this.identityWords.values()])
        for (const w of set)
          for (const d of writtenDesignations(w)) {
            written.add(d);
            const v = variantOf(d);
            if (!v || isValue(d)) continue;
            let list = variants.get(v.stem);
            if (!list) variants.set(v.stem, (list = new Set()));
            list.add(d);
          }
      this.written = { written, variants };
    }
    return this.written;
  }

  /**
   * The variants of a designation's model the library writes, as words without hyphens: whether
   * it writes this one, and the others of the same stem ("qx-40c" → qx40a, qx40b when a page
   * says "QX-40A/B"); values aside ("87 A" is no variant of an 87V). Nothing for a designation
   * without a variant suffix.
   */
  modelVariants(word: string): { written: boolean; others: string[] } {
    const own = variantOf(word);
    if (!own) return { written: false, others: [] };
    const { written, variants } = this.designationsWritten();
    const hyphenless = word.replace(/-/g, '');
    return { written: written.has(hyphenless), others: [...(variants.get(own.stem) ?? [])].filter((d) => d !== hyphenless).sort() };
  }

  private trigramPostings?: Map<string, number[]>;
  /** Distinct trigrams of each vocabulary term (by id), for the Dice denominator. */
  private trigramCounts?: Uint16Array;
  private readonly bigramCache = new Map<number, Set<string>>();
  /** Term → pages holding it per manual (termConcentration), computed on first use. */
  private readonly pagesWithTerm = new Map<string, Map<string, number>>();

  /** Adjacent term pairs of a page ("a b"), computed on first use. */
  pageBigrams(page: number): Set<string> {
    let set = this.bigramCache.get(page);
    if (!set) {
      const list = terms(this.pages[page].text);
      set = new Set(list.slice(1).map((t, i) => `${list[i]} ${t}`));
      if (this.bigramCache.size > 4096) this.bigramCache.clear();
      this.bigramCache.set(page, set);
    }
    return set;
  }

  /**
   * Vocabulary terms that share character trigrams with `term`, with their Dice similarity
   * (1 = the same trigrams): how a word misread by OCR ("c0nnector") still meets the question.
   */
  similarTerms(term: string): Map<string, number> {
    if (!this.trigramPostings) {
      this.trigramPostings = new Map();
      this.trigramCounts = new Uint16Array(this.vocabulary.length);
      this.vocabulary.forEach((t, id) => {
        const grams = new Set(charNgrams(t));
        this.trigramCounts![id] = grams.size;
        for (const g of grams) {
          let list = this.trigramPostings!.get(g);
          if (!list) this.trigramPostings!.set(g, (list = []));
          list.push(id);
        }
      });
    }
    const grams = new Set(charNgrams(term));
    const shared = new Map<number, number>();
    for (const g of grams) for (const id of this.trigramPostings.get(g) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    const out = new Map<string, number>();
    for (const [id, n] of shared) {
      out.set(this.vocabulary[id], (2 * n) / (grams.size + this.trigramCounts![id]));
    }
    return out;
  }

  /**
   * The share of the library's pages holding `term` that belong to manual `manualId` (0 when none
   * do): near 1 for a word that names that manual's device ("hx200"), low for a word every
   * manual uses ("power"), however often the manual itself uses it.
   */
  termConcentration(term: string, manualId: string): number {
    const perManual = this.pagesHolding(term);
    const all = [...perManual.values()].reduce((a, b) => a + b, 0);
    return all ? (perManual.get(manualId) ?? 0) / all : 0;
  }

  /**
   * Whether `term` names the device of manual `manualId`: a term of its title or file name, or
   * one on more than half of its pages (a running header, the model on every page). A word of the
   * cover page alone does not: a datasheet's first page is its cover and its content at once.
   */
  namesDevice(term: string, manualId: string): boolean {
    if (this.nameTerms.get(manualId)?.has(term)) return true;
    const pages = this.withinManual.get(manualId)?.pages.length ?? 0;
    return pages > 1 && (this.pagesHolding(term).get(manualId) ?? 0) > pages / 2;
  }

  /** Manual → how many of its pages hold `term`. */
  private pagesHolding(term: string): Map<string, number> {
    let perManual = this.pagesWithTerm.get(term);
    if (!perManual) {
      perManual = new Map();
      this.pageTermSets.forEach((set, i) => {
        if (set.has(term)) perManual!.set(this.pages[i].manualId, (perManual!.get(this.pages[i].manualId) ?? 0) + 1);
      });
      if (this.pagesWithTerm.size > 4096) this.pagesWithTerm.clear();
      this.pagesWithTerm.set(term, perManual);
    }
    return perManual;
  }

  private deviceIdentities?: Map<string, Set<string>>;

  /** Each device's identity words, copies of one manual together (identitiesByDevice); built once per index. */
  get identityWordsByDevice(): ReadonlyMap<string, ReadonlySet<string>> {
    this.deviceIdentities ??= identitiesByDevice(this.manuals, this.identityWords, (id) => this.contentKey(id));
    return this.deviceIdentities;
  }

  /**
   * A manual's page count and its first pages' text: the same for copies of one manual whatever
   * their title or file name (a renamed copy), undefined when those pages hold no text.
   */
  contentKey(manualId: string): string | undefined {
    const first = [1, 2, 3].map((n) => this.pageOf(manualId, n)).filter((i) => i !== undefined);
    const text = first.map((i) => this.pages[i].text.trim()).join('\n');
    return text ? `${this.withinManual.get(manualId)?.pages.length ?? 0}\u0000${text}` : undefined;
  }

  pageOf(manualId: string, page: number): number | undefined {
    return this.pageIndexOf.get(pageKey(manualId, page));
  }
}
