/**
 * The MCP endpoint over Streamable HTTP, stateless: each POST carries an API key, gets its own
 * server and transport, and is answered with JSON. GET (a server-initiated event stream) has
 * nothing to deliver without sessions, so it is refused with 405, which clients expect.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authenticateRequest, withInFlightSlot } from '@/lib/api/keys';
import { getConfig } from '@/lib/config';
import type { LibraryDeps } from '../api/operations';
import { GuardError, readJsonCapped } from '@/lib/security/request-guard';
import { createMcpServer } from './server';

/** Largest JSON-RPC body read: tool calls carry a question or a query, a few KB at most. */
const MAX_MCP_BODY_BYTES = 256 * 1024;

/** Where links in results point: PUBLIC_URL, else the origin the request came to. */
export function baseUrlOf(request: Request): string {
  return getConfig().publicUrl ?? new URL(request.url).origin;
}

export async function handleMcpRequest(request: Request, deps?: LibraryDeps): Promise<Response> {
  if (request.method !== 'POST') {
    return Response.json(
      { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless (POST only).' }, id: null },
      { status: 405, headers: { allow: 'POST' } },
    );
  }
  // The key (401), its rate limit (429) and its requests in flight (429) before a byte of the body is read.
  const caller = await authenticateRequest(request);
  if (caller instanceof Response) return caller;
  return withInFlightSlot(caller, async () => {
    let parsedBody: unknown;
    try {
      parsedBody = await readJsonCapped(request, MAX_MCP_BODY_BYTES);
    } catch (err) {
      if (err instanceof GuardError) return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: err.message }, id: null }, { status: err.status });
      throw err;
    }
    const server = createMcpServer({ authorize: async () => caller, baseUrl: baseUrlOf(request), deps });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      // Not JSON: the transport answers its parse error (-32700) for the null.
      return await transport.handleRequest(request, { parsedBody });
    } finally {
      // JSON responses are complete here (so the in-flight slot ends with them); the per-request server has nothing left to do.
      void server.close().catch(() => undefined);
    }
  });
}
