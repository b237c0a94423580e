/**
 * A manual's name. The PDF's own title is used when it names the document; producer boilerplate
 * ("Microsoft Word - x.doc", "Untitled", "Document Title"), file names and empty strings are
 * junk, and then the title comes from the largest text on the first pages (OCR text included,
 * for scans), and only failing that from the file name.
 */
import type { PageLayout } from './layout';
import { cleanName } from '../text/hygiene';
import { isDocumentWord, joinDocumentWords } from '../device/name';

/** Placeholder phrases that authoring tools leave in the title field. */
const PLACEHOLDER = /\b(?:untitled|document title|title of (?:the )?document|insert title|no title|new document|click here|type (?:the )?title)\b/i;
/** "Microsoft Word - spec.doc", "Adobe InDesign …", "PowerPoint Presentation". */
const PRODUCER = /^(?:microsoft|adobe|libreoffice|openoffice|writer|word|powerpoint|excel|quarkxpress|framemaker|pages)\b.*(?: - |presentation|document)/i;
/** Something that names a file rather than a document. */
const FILE_LIKE = /\.(?:pdf|docx?|odt|rtf|indd|qxd|fm|tex|dvi|ps|txt|html?)$|^[a-z]:\\|^\/|^[\w.-]+$/i;

/** The PDF's title when it names the document; undefined when it is junk. */
export function usableTitle(title: string | undefined, fileName?: string): string | undefined {
  // Invisible controls could make a title read differently from what it is.
  const t = title && cleanName(title);
  if (!t || t.length < 4 || t.length > 160) return undefined;
  if (PLACEHOLDER.test(t) || PRODUCER.test(t)) return undefined;
  // One token of letters, digits, dashes, dots or underscores is a slug (a file name or a job
  // number), unless it is a short model name in capitals such as "DP800".
  if (FILE_LIKE.test(t) && !(/^[A-Z0-9-]{3,12}$/.test(t) && /[A-Z]/.test(t) && /\d/.test(t))) return undefined;
  if (!/[a-z]{2}/i.test(t) || onlyGeneric(t)) return undefined;
  // The file's own name pasted into the title field ("manual_v2", "20240311-HX200_IM_C").
  if (fileName && !/\s/.test(t) && fileName.toLowerCase().startsWith(t.toLowerCase())) return undefined;
  return t;
}

/** A title of only document words ("User Manual", "Table of Contents") names no device. */
function onlyGeneric(text: string): boolean {
  return joinDocumentWords(text)
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => isDocumentWord(w.replace(/'s$/, '')));
}

/** Words of a line that make a title: enough letters, not a page number, URL or copyright line. */
function titleLike(text: string): boolean {
  const t = text.trim();
  if (t.length < 3 || t.length > 120) return false;
  // Words, or a model name such as "HX-200" (letters and digits).
  const model = /^[a-z]{1,6}-?\d[\w.-]*$/i.test(t);
  if (!/[a-z]{3}/i.test(t) && !model) return false;
  if (/^(?:page\s*)?\d+(?:\s*(?:of|\/)\s*\d+)?$/i.test(t) || /https?:|www\.|@|©|\(c\)|copyright|all rights reserved/i.test(t)) return false;
  if (PLACEHOLDER.test(t) || /^(?:table of )?contents\b/i.test(t)) return false;
  // OCR noise: mostly symbols or single letters.
  const letters = (t.match(/[a-z]/gi) ?? []).length;
  return model || letters / t.replace(/\s/g, '').length >= 0.6;
}

/**
 * The title printed on the first pages: the largest-font lines of the first page that has any
 * title-like text, in page order. When those are only generic words ("User Manual") or fewer than
 * three words ("HX-200"), the next size down joins them, up to three sizes. Text the PDF states
 * comes before text read from its pictures: on a cover with a text layer, OCR lines are logos,
 * photo labels and product shots (a stylised logo read as a near-miss word), so they count only on a
 * page that states no title-like text of its own (a scanned cover).
 */
export function titleFromPages(pages: Array<Pick<PageLayout, 'lines'>>, maxPages = 2): string | undefined {
  for (const page of pages.slice(0, maxPages)) {
    const candidates = page.lines.filter((l) => !l.running && titleLike(l.text));
    const stated = candidates.filter((l) => !l.ocr);
    const lines = stated.length ? stated : candidates;
    if (!lines.length) continue;
    // Sizes within 15 % count as one style (OCR estimates sizes from line boxes).
    const sizes = [...new Set(lines.map((l) => l.fontSize))].sort((a, b) => b - a);
    const tiers: number[] = [];
    for (const size of sizes) if (!tiers.length || size < tiers.at(-1)! * 0.85) tiers.push(size);
    for (let tier = 0; tier < Math.min(3, tiers.length); tier++) {
      const floor = tiers[tier] * 0.85;
      const words: string[] = [];
      for (const l of lines) {
        if (l.fontSize < floor) continue;
        const text = cleanName(l.text);
        // Covers repeat the product name in several places: keep its first appearance.
        if (!words.some((w) => w.toLowerCase().includes(text.toLowerCase()))) words.push(text);
      }
      const title = words.join(' ').slice(0, 160).trim();
      if (title.length > 120) break; // that size is body text, not a title
      // A lone model name ("HX-200") or one word takes the next size down too ("Hydraulic Press Controller").
      const short = title.split(' ').length < 3 && tier + 1 < Math.min(3, tiers.length) && tiers[tier + 1] >= tiers[tier] * 0.4;
      if (title.length >= 4 && !onlyGeneric(title) && !short) return title;
    }
  }
  return undefined;
}
