/**
 * A real HTTP server on 127.0.0.1 for provider fault tests: each request is answered by a handler
 * the test switches at will (healthy, 429, 5xx, malformed body, never answering). Requests are
 * recorded; close() drops the connections a hanging handler left open.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FaultRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** What to send back; `hang` keeps the connection open without a byte of answer. */
export type FaultReply = { status: number; body: string | object; headers?: Record<string, string> } | 'hang';

export type FaultHandler = (req: FaultRequest, n: number) => FaultReply;

export interface FaultServer {
  url: string;
  requests: FaultRequest[];
  /** Replaces the handler for the following requests. */
  respond(handler: FaultHandler): void;
  close(): Promise<void>;
}

export async function startFaultServer(handler: FaultHandler): Promise<FaultServer> {
  let current = handler;
  const requests: FaultRequest[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // Not JSON: keep the text.
      }
      const request: FaultRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
      requests.push(request);
      const reply = current(request, requests.length);
      if (reply === 'hang') return;
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond: (h) => {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An OpenAI-style error body. */
export const openaiErrorReply = (status: number, message: string, headers?: Record<string, string>): FaultReply => ({
  status,
  body: { error: { message, type: 'error', code: String(status) } },
  headers,
});

/** An OpenAI-compatible /embeddings answer: one vector per input, made by `vectorOf`. */
export function embeddingsReply(req: FaultRequest, vectorOf: (text: string) => number[]): FaultReply {
  const input = (req.body as { input?: string[] | string })?.input ?? [];
  const texts = Array.isArray(input) ? input : [input];
  return {
    status: 200,
    body: {
      object: 'list',
      model: 'fake-embedder',
      data: texts.map((t, index) => ({ object: 'embedding', index, embedding: vectorOf(t) })),
      usage: { prompt_tokens: 1, total_tokens: 1 },
    },
  };
}
