/**
 * Typed error codes of the chat surface (`type:surface`, as in vercel/ai-chatbot). Every code has a
 * decided HTTP status and a message written for the person using the app; anything unexpected is
 * logged on the server and shown as a generic message.
 */
import type { z } from 'zod';
import { DISK_FULL_MESSAGE_TEXT, diskFullResponse, isDiskFull } from '../runtime/disk-space';

type ErrorType = 'bad_request' | 'unauthorized' | 'not_found' | 'busy' | 'unavailable' | 'internal';
type Surface = 'chat' | 'message' | 'share' | 'scope' | 'manuals' | 'feedback';
export type ErrorCode = `${ErrorType}:${Surface}`;

const STATUS: Record<ErrorType, number> = { bad_request: 400, unauthorized: 401, not_found: 404, busy: 409, unavailable: 409, internal: 500 };

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  'bad_request:chat': 'That request could not be understood. Please try again.',
  'unauthorized:chat': 'Please sign in first.',
  'not_found:chat': 'This chat does not exist, or it is not yours.',
  'not_found:message': 'That answer does not exist, or it is not yours.',
  'not_found:share': 'This shared link does not exist or was revoked.',
  'busy:chat': 'An answer is still being written in this chat. Stop it or wait for it to finish.',
  'unavailable:manuals': 'No manual is ready yet. Upload one on the Manuals page and wait until it shows “Ready”.',
  'bad_request:scope': 'None of the chosen manuals is ready. Pick other manuals or search all of them.',
  'bad_request:message': 'Only the last answer of a chat can be retried, once it has finished.',
  'internal:chat': 'Something went wrong on the server. Please try again.',
};

export class ChatError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  constructor(code: ErrorCode, message?: string) {
    super(message ?? MESSAGES[code] ?? 'Something went wrong. Please try again.');
    this.name = 'ChatError';
    this.code = code;
    this.status = STATUS[code.split(':')[0] as ErrorType];
  }
}

export function isChatError(err: unknown): err is ChatError {
  return err instanceof ChatError;
}

/** What a server action returns: data, or a typed error the UI can show. Never a thrown error. */
export type ActionResult<T = undefined> = { ok: true; data: T } | { ok: false; code: ErrorCode; message: string };

function toFailure(err: unknown): { ok: false; code: ErrorCode; message: string } {
  if (isChatError(err)) return { ok: false, code: err.code, message: err.message };
  // Server actions (rename, share, feedback…) say a full disk plainly too.
  if (isDiskFull(err)) {
    console.error('[chat] the disk is full', err);
    return { ok: false, code: 'internal:chat', message: DISK_FULL_MESSAGE_TEXT };
  }
  console.error('[chat] unexpected error', err);
  const fallback = new ChatError('internal:chat');
  return { ok: false, code: fallback.code, message: fallback.message };
}

/** Runs an action body, turning domain errors into an ActionResult. */
export async function asAction<T>(body: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await body() };
  } catch (err) {
    return toFailure(err);
  }
}

/** `input` as `schema` reads it; input it refuses is a bad_request:chat (with `message`, else the standard one). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, message?: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ChatError('bad_request:chat', message);
  return parsed.data;
}

export function errorJson(err: unknown): Response {
  // A full disk (SQLITE_FULL, Postgres 53100, ENOSPC, LanceDB's "No space left on device") is a 507 the person can act on.
  if (isDiskFull(err)) {
    console.error('[chat] the disk is full', err);
    return diskFullResponse();
  }
  const failure = toFailure(err);
  return Response.json({ error: failure.message, code: failure.code }, { status: isChatError(err) ? err.status : 500 });
}
