/**
 * The manuals library as the routes see it: accept an upload, list, delete, retry with a password.
 * Uploads are validated by content before anything is recorded, so a bad file leaves no trace.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { manualDir, manualSourcePath } from '../ingest/paths';
import { IngestError, ingestErrors, isIngestError } from '../ingest/errors';
import { pokeIngestWorker } from '../ingest/worker-client';
import { safeFileName, saveUpload, titleFromFileName } from '../ingest/upload';
import { deviceName } from '../device/name';
import { usableTitle } from '../ingest/manual-title';
import type { ManualView } from './view';
import { inspectPdfFile } from '../pdf-worker/pool';
import { getConfig } from '../config';
import { cleanName, stripInvisibleControls } from '../text/hygiene';
import { type Actor, actorFor } from '../auth/roles';
import { getVectorStore } from '../providers/vectorstore';
import { queuedManualIds } from '../store/jobs';
import { createManual, deleteManualRow, findManualBySha, getManual, listManuals, updateManual, type Manual } from '../store/manuals';

function toManualView(m: Manual, actor: Actor | null, queuePosition: number | null = null): ManualView {
  const mine = canModify(m, actor);
  return {
    id: m.id,
    title: m.title,
    device: deviceName(m.title),
    fileName: m.fileName,
    sizeBytes: m.sizeBytes,
    pageCount: m.pageCount,
    ocrPages: m.ocrPages,
    status: m.status,
    progressDone: m.progressDone,
    progressTotal: m.progressTotal,
    error: m.error,
    errorCode: m.errorCode,
    createdAt: m.createdAt.getTime(),
    canDelete: mine,
    lockedReason: mine ? null : 'Only the person who uploaded this manual, or an administrator, can rename or delete it.',
    queuePosition,
    reembedStage: m.status === 'ready' ? m.reembedStage : null,
    searchablePages: m.searchablePages,
    figureLabels: m.figureLabels,
  };
}

/** Uploaders manage their own manuals; admins manage every manual (CLI ingests and the sample are the admin's). */
export function canModify(m: Manual, actor: Actor | null): boolean {
  return !!actor && (actor.role === 'admin' || m.ownerId === actor.id);
}

export async function listManualViews(ownerId: string | null): Promise<ManualView[]> {
  const actor = await actorFor(ownerId);
  const [manuals, queue] = await Promise.all([listManuals(), queuedManualIds()]);
  return manuals.map((m) => toManualView(m, actor, m.status === 'queued' ? queue.indexOf(m.id) + 1 || null : null));
}

/**
 * Pages count and title, or the password problem, of a PDF on disk; other problems throw IngestError.
 * pdf.js runs in a bounded worker process (lib/pdf-worker), never on the web server's thread. The
 * title is the PDF's own when it is not junk; otherwise the pipeline takes one from the first pages.
 */
async function inspectPdf(file: string, fileName: string, password?: string): Promise<{ pages: number; title?: string } | { passwordError: IngestError }> {
  const { maxBytes, maxPages } = getConfig().upload;
  try {
    const inspected = await inspectPdfFile(file, { password, maxBytes, maxPages });
    return 'pages' in inspected ? { pages: inspected.pages, title: usableTitle(inspected.title, fileName) } : inspected;
  } catch (err) {
    if (isIngestError(err, 'password_required') || isIngestError(err, 'password_incorrect')) return { passwordError: err };
    throw err;
  }
}

export interface AcceptedUpload {
  manual: ManualView;
  duplicate: boolean;
}

/**
 * Streams an upload to disk, validates it as a PDF, dedups by sha256 and queues it for ingestion.
 * Throws IngestError (with a user-facing message) for empty, oversized, non-PDF or corrupt files,
 * and for a disk too full to take it (`declaredBytes`: the request's Content-Length, if known);
 * a password-protected file is kept as a failed manual the user can unlock with its password.
 */
export async function acceptUpload(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  rawFileName: string,
  ownerId: string | null,
  declaredBytes?: number,
): Promise<AcceptedUpload> {
  const { upload } = getConfig();
  const saved = await saveUpload(body, upload.maxBytes, declaredBytes);
  try {
    const existing = await findManualBySha(saved.sha256);
    if (existing && existing.status !== 'failed') {
      return { manual: toManualView(existing, await actorFor(ownerId)), duplicate: true };
    }
    const inspected = await inspectPdf(saved.tmpPath, rawFileName);
    const id = existing?.id ?? randomUUID();
    fs.mkdirSync(manualDir(id), { recursive: true });
    fs.renameSync(saved.tmpPath, manualSourcePath(id));
    const fileName = safeFileName(stripInvisibleControls(rawFileName));
    if (!existing) {
      const title = ('title' in inspected && inspected.title) || titleFromFileName(fileName);
      try {
        await createManual({ id, title, fileName, sha256: saved.sha256, sizeBytes: saved.size, ownerId: ownerId ?? undefined });
      } catch (err) {
        // Concurrent uploads of one file: sha256 is unique, so one row wins. The others remove
        // the file they placed and get that manual, as the dedupe path above answers.
        fs.rmSync(manualDir(id), { recursive: true, force: true });
        const winner = await findManualBySha(saved.sha256);
        if (winner) return { manual: toManualView(winner, await actorFor(ownerId)), duplicate: true };
        throw err;
      }
    }
    if ('passwordError' in inspected) {
      await updateManual(id, {
        status: 'failed',
        error: inspected.passwordError.message,
        errorCode: inspected.passwordError.code,
        progressDone: 0,
        progressTotal: 0,
      });
    } else {
      await updateManual(id, { status: 'queued', error: null, errorCode: null, pageCount: inspected.pages, progressDone: 0, progressTotal: 0, attempts: 0 });
      pokeIngestWorker();
    }
    const manual = await getManual(id);
    return { manual: toManualView(manual!, await actorFor(ownerId)), duplicate: false };
  } finally {
    fs.rmSync(saved.tmpPath, { force: true });
  }
}

export class LibraryError extends Error {
  constructor(
    public readonly status: 404 | 401 | 403 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

async function requireModifiable(id: string, ownerId: string | null): Promise<{ manual: Manual; actor: Actor }> {
  const actor = await actorFor(ownerId);
  if (!actor) throw new LibraryError(401, 'Please sign in (or open the app in a browser) first.');
  const m = await getManual(id);
  if (!m) throw new LibraryError(404, 'This manual does not exist.');
  if (!canModify(m, actor)) throw new LibraryError(403, 'Only the person who uploaded this manual, or an administrator, can change it.');
  return { manual: m, actor };
}

/** Removes the manual's vectors, then its files, then its rows (pages and chunks cascade). */
export async function deleteManual(id: string, ownerId: string | null): Promise<void> {
  await requireModifiable(id, ownerId);
  // The row goes last: if anything before fails, the manual is still listed and can be retried.
  await (await getVectorStore()).deleteManual(id);
  fs.rmSync(manualDir(id), { recursive: true, force: true });
  await deleteManualRow(id);
}

export async function retryWithPassword(id: string, password: string, ownerId: string | null): Promise<ManualView> {
  const { manual: m, actor } = await requireModifiable(id, ownerId);
  if (m.errorCode !== 'password_required' && m.errorCode !== 'password_incorrect') {
    throw new LibraryError(409, 'This manual does not need a password.');
  }
  const inspected = await inspectPdf(manualSourcePath(id), m.fileName, password);
  if ('passwordError' in inspected) {
    const err = inspected.passwordError.code === 'password_required' ? ingestErrors.passwordIncorrect() : inspected.passwordError;
    await updateManual(id, { error: err.message, errorCode: err.code });
    throw new LibraryError(422, err.message);
  }
  await updateManual(id, { status: 'queued', error: null, errorCode: null, password, pageCount: inspected.pages, attempts: 0 });
  pokeIngestWorker();
  return toManualView((await getManual(id))!, actor);
}

/** A title as a person types it: one line, 1–160 characters. */
function cleanTitle(raw: string): string {
  const title = cleanName(raw);
  if (!title || title.length > 160) throw new LibraryError(422, 'A title needs 1 to 160 characters.');
  return title;
}

/** Renames a manual (whoever may change it: see canModify). New answers, the library and the scope picker use the new title. */
export async function renameManual(id: string, rawTitle: string, ownerId: string | null): Promise<ManualView> {
  const { actor } = await requireModifiable(id, ownerId);
  await updateManual(id, { title: cleanTitle(rawTitle) });
  return toManualView((await getManual(id))!, actor);
}
