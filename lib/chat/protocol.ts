/**
 * The chat stream: POST /api/chat answers with NDJSON, one JSON object per line. The first line
 * says which session and message the turn belongs to, then every agent event follows as it is
 * produced, then `end`. Errors before the turn starts are a plain JSON response with a status.
 */
import type { AgentEvent } from '@/lib/agent/events';
import type { ErrorCode } from './errors';
import type { TurnStatus } from './view';

export type StreamLine =
  | { kind: 'start'; sessionId: string; messageId: string; title: string; createdSession: boolean; replaced?: string }
  | { kind: 'event'; event: AgentEvent }
  | { kind: 'fail'; code: ErrorCode; message: string }
  | { kind: 'end'; status: TurnStatus };

export const NDJSON_HEADERS = {
  'content-type': 'application/x-ndjson; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  'x-content-type-options': 'nosniff',
  // Reverse proxies (nginx) must not buffer the stream.
  'x-accel-buffering': 'no',
} as const;

/** Ids the app generates (UUIDs, base64url); anything else is rejected before touching the DB. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

const encoder = new TextEncoder();

export function encodeLine(line: StreamLine): Uint8Array {
  return encoder.encode(`${JSON.stringify(line)}\n`);
}

/** Splits a text stream into parsed lines; keeps the unfinished tail between chunks. */
export class LineDecoder {
  private buffer = '';

  push(chunk: string): StreamLine[] {
    this.buffer += chunk;
    const out: StreamLine[] = [];
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line) out.push(JSON.parse(line) as StreamLine);
    }
    return out;
  }

  /** Whatever remains when the stream ends (a last line without a newline). */
  flush(): StreamLine[] {
    const rest = this.buffer.trim();
    this.buffer = '';
    return rest ? [JSON.parse(rest) as StreamLine] : [];
  }
}
