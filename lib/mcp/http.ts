/**
 * The MCP endpoint over Streamable HTTP, stateless: each POST carries an API key, gets its own
 * server and transport, and is answered with JSON. GET (a server-initiated event stream) has
 * nothing to deliver without sessions, so it is refused with 405, which clients expect.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authenticateRequest } from '@/lib/api/keys';
import { getConfig } from '@/lib/config';
import type { LibraryDeps } from '../api/operations';
import { createMcpServer } from './server';

/** Where links in results point: PUBLIC_URL, else the origin the request came to. */
export function baseUrlOf(request: Request): string {
  return getConfig().publicUrl ?? new URL(request.url).origin;
}

export async function handleMcpRequest(request: Request, deps?: LibraryDeps): Promise<Response> {
  if (request.method !== 'POST') {
    return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless (POST only).' }, id: null }, { status: 405, headers: { allow: 'POST' } });
  }
  const caller = await authenticateRequest(request);
  if (caller instanceof Response) return caller;
  const server = createMcpServer({ authorize: async () => caller, baseUrl: baseUrlOf(request), deps });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    // JSON responses are complete here; the per-request server has nothing left to do.
    void server.close().catch(() => undefined);
  }
}
