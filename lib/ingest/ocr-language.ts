/**
 * Which language model to OCR a scanned page with. English stays the default; the
 * languages of OCR_LANGUAGES that the engine has a model for are the candidates. A page is read
 * with a first guess (English, or the language the manual's previous pages turned out to be), its
 * text is given to a language identifier (franc: character trigrams, ~1–5 ms a page) restricted to
 * the candidates, and only a page identified as another language is read again with that model.
 * English manuals therefore cost one detection per scanned page and nothing else.
 *
 * Measured on a scanned Czech manual (6 pages, native tesseract 5.3; docs/benchmarks.md):
 * words (3+ letters) found in the cs_CZ + en_US hunspell dictionaries: eng 42 %, ces 86 %,
 * eng+ces 86 %; diacritics kept: 163 / 645 / 631. ces alone takes about as long as eng, eng+ces
 * twice as long, hence one model per page rather than all of them joined with '+'.
 * With eng and ces configured, the English pass of 6 of 7 Czech pages was identified as Czech; the
 * 7th (250 characters) was too close to call and kept the manual's current language.
 *
 * Other scripts: the English model writes Latin letters only, so a Russian or Chinese page is not
 * recognised from its text. Its English pass has a low confidence instead (a rendered Russian
 * page: 36 against 96 for the same page in English), so when a configured language is written in
 * another script, a page read with low confidence goes through tesseract's orientation and
 * script detection (OSD, ~1 s a page) and, when that names another script, is read with the
 * configured language of that script.
 */
import { francAll } from 'franc';
import type { OcrResult } from './ocr';

/** Tesseract codes whose ISO 639-3 code (what franc returns) differs. */
const FRANC_CODE: Record<string, string> = {
  chi_sim: 'cmn',
  chi_tra: 'cmn',
  ara: 'arb',
  fas: 'pes',
  msa: 'zlm',
  aze: 'azj',
  uzb: 'uzn',
  est: 'ekk',
  lav: 'lvs',
  sqi: 'als',
  nor: 'nob',
  swa: 'swh',
};

/** Tesseract codes by the script name its OSD reports; anything not listed is Latin. */
const SCRIPT_LANGUAGES: Record<string, readonly string[]> = {
  Han: ['chi_sim', 'chi_tra'],
  Japanese: ['jpn'],
  Korean: ['kor'],
  Cyrillic: ['rus', 'ukr', 'bel', 'bul', 'mkd', 'srp', 'kaz', 'kir', 'tgk', 'mon'],
  Greek: ['ell', 'grc'],
  Arabic: ['ara', 'fas', 'urd', 'pus', 'uig'],
  Hebrew: ['heb', 'yid'],
  Devanagari: ['hin', 'mar', 'nep', 'san'],
  Thai: ['tha'],
};

function scriptOf(language: string): string {
  for (const [script, languages] of Object.entries(SCRIPT_LANGUAGES)) if (languages.includes(language)) return script;
  return 'Latin';
}

/** Mean word confidence under which a page's script is checked (when several scripts are configured). */
const LOW_CONFIDENCE = 60;

/** Fewer letters than this and trigram statistics say little: the page keeps its first guess. */
const MIN_LETTERS_TO_DETECT = 60;
/**
 * How far ahead of the runner-up the winner must be (francAll scores the best as 1). On an English
 * scanned page ces scored 0.955 against eng; on a short Czech list of figures read with the
 * English model eng scored 1 against ces 0.993 — undecided, so that page keeps its guess.
 */
const MIN_MARGIN = 0.01;

/**
 * The language (a tesseract code from `candidates`) the text is written in, or null when it is
 * too short to tell or the identifier cannot decide.
 */
export function detectLanguage(text: string, candidates: readonly string[]): string | null {
  if (candidates.length < 2) return candidates[0] ?? null;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < MIN_LETTERS_TO_DETECT) return null;
  const byFranc = new Map<string, string>();
  for (const code of candidates) {
    const f = FRANC_CODE[code] ?? code;
    if (!byFranc.has(f)) byFranc.set(f, code);
  }
  const ranked = francAll(text, { only: [...byFranc.keys()], minLength: MIN_LETTERS_TO_DETECT });
  const [best, second] = ranked;
  if (!best || best[0] === 'und') return null;
  if (second && best[1] - second[1] < MIN_MARGIN) return null;
  return byFranc.get(best[0]) ?? null;
}

/** The candidate languages of a page: English first, then OCR_LANGUAGES the engine has a model for. */
export function ocrLanguageCandidates(configured: readonly string[], installed: readonly string[]): string[] {
  const have = new Set(installed);
  const out = ['eng'];
  for (const l of configured) if (l !== 'eng' && have.has(l) && !out.includes(l)) out.push(l);
  return out;
}

/**
 * Per manual: the language to read the next scanned page with first. It follows the pages read so
 * far (a Czech manual is read in Czech from its second scanned page on: one pass a page instead of
 * two) and falls back to English.
 */
export class ManualLanguage {
  private guess: string;
  readonly pages = new Map<string, number>();
  /** Pages being read now, and who waits for one of them to settle. */
  private reading = 0;
  /** Pages of `reading` that are themselves waiting in usualOnceKnown (they settle nothing meanwhile). */
  private parked = 0;
  private waiting: Array<() => void> = [];

  constructor(readonly candidates: readonly string[]) {
    this.guess = candidates[0] ?? 'eng';
  }

  /** Whether detection can change anything (more than one candidate). */
  get active(): boolean {
    return this.candidates.length > 1;
  }

  /** Whether the candidates span more than one script (then low-confidence pages get OSD). */
  get scripts(): number {
    return new Set(this.candidates.map(scriptOf)).size;
  }

  firstGuess(): string {
    return this.guess;
  }

  /** The language most of the manual's pages settled in so far, or null before the first. */
  usual(): string | null {
    let best: string | null = null;
    for (const [language, n] of this.pages) if (best === null || n > this.pages.get(best)!) best = language;
    return best;
  }

  /** Records the language a page was finally read in. */
  settled(language: string): void {
    this.guess = language;
    this.pages.set(language, (this.pages.get(language) ?? 0) + 1);
  }

  /**
   * The manual's usual language for a page that could not be identified; while none has settled
   * yet but other pages are being read, waits for them (several pages are read at once, and the
   * first ones take two reads).
   */
  async usualOnceKnown(): Promise<string | null> {
    this.parked++;
    try {
      // Others still reading (not parked here too) will settle; when all are parked, go on.
      while (this.usual() === null && this.reading - this.parked > 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    } finally {
      this.parked--;
      this.wakeAll();
    }
    return this.usual();
  }

  private wakeAll() {
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** Runs the reading of one page, counted as in flight until it settles or fails. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.reading++;
    try {
      return await work();
    } finally {
      this.reading--;
      this.wakeAll();
    }
  }
}

/**
 * Reads a whole scanned page in its language: with the manual's current guess first; when that
 * read is unsure and another script is configured, OSD may switch the script; then the text is
 * identified among the candidates of its script and, if it is another language, read again.
 * `read` recognises the page with one language model; `detectScript` runs OSD on it.
 */
export async function readInItsLanguage(
  read: (language: string) => Promise<OcrResult>,
  detectScript: (() => Promise<{ script: string } | null>) | undefined,
  lang: ManualLanguage,
): Promise<{ result: OcrResult; language: string }> {
  return lang.track(() => readTracked(read, detectScript, lang));
}

async function readTracked(
  read: (language: string) => Promise<OcrResult>,
  detectScript: (() => Promise<{ script: string } | null>) | undefined,
  lang: ManualLanguage,
): Promise<{ result: OcrResult; language: string }> {
  let language = lang.firstGuess();
  let result = await read(language);
  if (detectScript && lang.scripts > 1 && result.confidence < LOW_CONFIDENCE) {
    const found = await detectScript();
    const other = found && found.script !== scriptOf(language) ? lang.candidates.find((c) => scriptOf(c) === found.script) : undefined;
    if (other) {
      language = other;
      result = await read(language);
    }
  }
  const sameScript = lang.candidates.filter((c) => scriptOf(c) === scriptOf(language));
  // Too short or too close to call: the manual's usual language (pages are read a few at a time,
  // so a page may have started before the manual's first pages settled).
  let detected = detectLanguage(result.text, sameScript);
  if (!detected) {
    const usual = await lang.usualOnceKnown();
    detected = usual && sameScript.includes(usual) ? usual : null;
  }
  if (detected && detected !== language) {
    language = detected;
    result = await read(language);
  }
  lang.settled(language);
  return { result, language };
}
