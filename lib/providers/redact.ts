/**
 * Keeps API keys out of log lines and out of errors that end up in logs, stored chat events or the
 * UI. A provider (or a proxy in front of it) may echo the key or the Authorization header back in
 * its error body, which the AI SDK copies into the error's message and fields.
 */
import { inspect } from 'node:util';

type Secrets = ReadonlyArray<string | undefined>;

/** Real keys are long; short values would redact ordinary words. */
const usable = (secrets: Secrets) => secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);

export function redact(text: string, secrets: Secrets): string {
  for (const s of usable(secrets)) text = text.split(s).join('[redacted]');
  return text;
}

/**
 * The error itself when no secret appears anywhere in it (message, cause, response body…), or else a
 * plain Error with the same name and the redacted message: the raw provider error is dropped, since
 * printing it (console.error walks causes and fields) would print the key.
 */
export function withoutSecrets<T>(error: T, secrets: Secrets): T | Error {
  const keys = usable(secrets);
  if (!keys.length) return error;
  const text = error instanceof Error ? inspect(error, { depth: 8 }) : String(error);
  if (!keys.some((k) => text.includes(k))) return error;
  const safe = new Error(redact(error instanceof Error ? error.message : String(error), keys));
  safe.name = error instanceof Error ? error.name : 'Error';
  return safe;
}
