/**
 * Typed ingest errors. `code` is stable (the UI, the store and tests switch on it); `message` is
 * written for the person who uploaded the file; `detail` keeps the low-level cause for logs.
 */

export type IngestErrorCode =
  | 'empty'
  | 'not_pdf'
  | 'corrupt'
  | 'too_large'
  | 'too_many_pages'
  | 'password_required'
  | 'password_incorrect'
  | 'render_failed'
  | 'ocr_failed'
  | 'too_slow'
  | 'too_complex'
  | 'disk_full';

export class IngestError extends Error {
  readonly code: IngestErrorCode;
  /** Low-level cause (pdf.js message, sizes…), for logs, never shown as the headline. */
  readonly detail?: string;
  /** True when the user can fix it by acting (e.g. typing the password) without a new file. */
  readonly retryable: boolean;

  constructor(code: IngestErrorCode, message: string, opts: { detail?: string; cause?: unknown; retryable?: boolean } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'IngestError';
    this.code = code;
    this.detail = opts.detail;
    this.retryable = opts.retryable ?? false;
  }

  toJSON() {
    return { code: this.code, message: this.message, detail: this.detail, retryable: this.retryable };
  }
}

/**
 * By name and code, not only `instanceof`: Next bundles instrumentation and each route separately,
 * so an error made by the PDF worker pool (a process-wide singleton, created by whichever bundle
 * started it) can be another copy of this class than the route's.
 */
export function isIngestError(err: unknown, code?: IngestErrorCode): err is IngestError {
  const typed = err instanceof IngestError || (err instanceof Error && err.name === 'IngestError' && typeof (err as { code?: unknown }).code === 'string');
  return typed && (code === undefined || (err as IngestError).code === code);
}

const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/** "45 s", "12 min". */
const seconds = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);
const SIMPLIFY = 'Re-export it from the original document, or split it, and upload it again.';

/** Constructors with the user-facing wording kept in one place. */
export const ingestErrors = {
  empty: () => new IngestError('empty', 'The file is empty (0 bytes). Please upload the PDF again.'),
  notPdf: (looksLike?: string) =>
    new IngestError(
      'not_pdf',
      looksLike
        ? `This file is not a PDF: it looks like ${looksLike}. Please upload the manual as a PDF.`
        : 'This file is not a PDF (no PDF header found). Please upload the manual as a PDF.',
      { detail: looksLike },
    ),
  corrupt: (detail?: string, cause?: unknown) =>
    new IngestError('corrupt', 'This PDF is damaged or incomplete and cannot be read. Try downloading it again or re-exporting it.', {
      detail,
      cause,
    }),
  tooLarge: (bytes: number, maxBytes: number) =>
    new IngestError('too_large', `This file is ${mb(bytes)}, larger than the ${mb(maxBytes)} upload limit.`, {
      detail: `${bytes} > ${maxBytes} bytes`,
    }),
  tooManyPages: (pages: number, maxPages: number) =>
    new IngestError('too_many_pages', `This PDF has ${pages} pages; the limit is ${maxPages}. Split it into smaller files.`, {
      detail: `${pages} > ${maxPages} pages`,
    }),
  passwordRequired: () => new IngestError('password_required', 'This PDF is password-protected. Enter its password to open it.', { retryable: true }),
  passwordIncorrect: () => new IngestError('password_incorrect', 'The password is incorrect for this PDF. Please try again.', { retryable: true }),
  renderFailed: (page: number, cause?: unknown) =>
    new IngestError('render_failed', `Page ${page} could not be rendered as an image.`, { detail: String(cause), cause }),
  pageTooSlow: (page: number, doing: 'read' | 'draw', ms: number) =>
    new IngestError('too_slow', `Page ${page} takes too long to ${doing} (more than ${seconds(ms)}). ${SIMPLIFY}`, {
      detail: `page ${page}: ${doing} > ${ms} ms`,
    }),
  tooManyOperators: (page: number, max: number) =>
    new IngestError('too_complex', `Page ${page} has too many drawing operations (more than ${max.toLocaleString('en-US')}). ${SIMPLIFY}`, {
      detail: `page ${page}: > ${max} operators`,
    }),
  pageTooBig: (page: number | undefined, heapMb: number) =>
    new IngestError('too_complex', `${page ? `Page ${page}` : 'This PDF'} needs more than ${heapMb} MB of memory to read. ${SIMPLIFY}`, {
      detail: `page ${page ?? '-'}: pdf.js heap > ${heapMb} MB`,
    }),
  jobTooSlow: (ms: number) =>
    new IngestError('too_slow', `Processing this PDF took longer than its limit (${seconds(ms)}). ${SIMPLIFY}`, { detail: `job > ${ms} ms` }),
  ocrFailed: (detail: string, cause?: unknown) => new IngestError('ocr_failed', 'Text recognition (OCR) failed for a scanned page.', { detail, cause }),
  notEnoughSpace: (needed: number, free: number) =>
    new IngestError(
      'disk_full',
      `The server does not have enough free disk space for this file (${mb(needed)} needed, ${mb(free)} free). Ask the administrator to free some space, then upload it again.`,
      { detail: `${needed} needed incl. reserve > ${free} free bytes` },
    ),
  reserveReached: (reserve: number) =>
    new IngestError(
      'disk_full',
      `The server's disk is nearly full: saving this file would leave less than the ${mb(reserve)} kept free, so it was not kept. Ask the administrator to free some space, then upload it again.`,
      { detail: `free space fell below the ${reserve}-byte reserve while streaming` },
    ),
  diskFull: (cause?: unknown) =>
    new IngestError(
      'disk_full',
      "The server's disk filled up while saving this file, so it was not kept. Ask the administrator to free some space, then upload it again.",
      {
        detail: String(cause),
        cause,
      },
    ),
};
