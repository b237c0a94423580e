/**
 * The MCP server (official @modelcontextprotocol/sdk): the manuals as tools and resources for an
 * assistant or IDE. One server per connection (stdio) or per request (Streamable HTTP,
 * stateless). Every tool call is authorised with the caller's API key first (a key revoked
 * mid-session stops working at once) and audited; a domain problem (unknown manual, page out of
 * range) is a tool result with `isError`, which the assistant can read and act on.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { audited, type ApiCaller } from '@/lib/api/keys';
import { APP_VERSION } from '@/lib/runtime/version';
import { askAgent, LibraryApiError, listLibrary, readPage, resolveManuals, searchPassages, type LibraryDeps } from '../api/operations';

export interface McpContext {
  /** The caller, checked again for each call (throws ApiKeyError when the key is no longer valid). */
  authorize: () => Promise<ApiCaller>;
  /** The app's origin, for links in results. */
  baseUrl: string;
  deps?: LibraryDeps;
}

const json = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  structuredContent: value as Record<string, unknown>,
});

const failure = (message: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text: message }] });

export function createMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(
    { name: 'manual-copilot', title: 'Manual Copilot', version: APP_VERSION },
    {
      instructions:
        'Equipment manuals (PDF) with cited answers. list_manuals names the manuals; search_manuals finds passages; get_page reads a page (text and image); ask runs the agent for a cited answer.',
    },
  );

  /** Authorises, audits and turns library errors into readable tool errors. */
  const call = async (tool: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    let caller: ApiCaller;
    try {
      caller = await ctx.authorize();
    } catch (err) {
      return failure(err instanceof Error ? err.message : String(err));
    }
    return audited(
      caller,
      `mcp:${tool}`,
      () =>
        run().catch((err) => {
          if (err instanceof LibraryApiError) return failure(err.message);
          throw err;
        }),
      (r) => (r.isError ? String((r.content[0] as { text?: string })?.text ?? 'error') : undefined),
    );
  };

  server.registerTool(
    'list_manuals',
    {
      title: 'List manuals',
      description: 'Every manual in the library with its id, title, page count and status (only ready manuals can be searched or asked).',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () => call('list_manuals', async () => json({ manuals: await listLibrary(ctx.baseUrl) })),
  );

  server.registerTool(
    'search_manuals',
    {
      title: 'Search manuals',
      description:
        'Finds the passages of the manuals that best match a query (hybrid keyword + semantic search). Returns manual, page, text, score and a preview link per passage.',
      inputSchema: {
        query: z.string().trim().min(1).max(1000).describe("what to look for, in the manual's words"),
        manual: z.string().min(1).max(200).optional().describe('restrict to one manual (its id or exact title from list_manuals)'),
        k: z.number().int().min(1).max(50).default(5).describe('how many passages (1–50, default 5)'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) => call('search_manuals', async () => json({ passages: await searchPassages(args, ctx.baseUrl, ctx.deps) })),
  );

  server.registerTool(
    'get_page',
    {
      title: 'Get a manual page',
      description: 'The text of one page of a manual and its rendered image (PNG), e.g. to read a diagram or table a passage points to.',
      inputSchema: {
        manual: z.string().min(1).max(200).describe('the manual id or exact title'),
        page: z.number().int().min(1).describe('1-based page number'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      call('get_page', async () => {
        const p = await readPage(args, ctx.baseUrl);
        const meta = { manual: p.manual, manualTitle: p.manualTitle, page: p.page, pageCount: p.pageCount, ocr: p.ocr, previewUrl: p.previewUrl };
        return {
          content: [
            {
              type: 'text',
              text: `${p.manualTitle}, page ${p.page} of ${p.pageCount} (${p.previewUrl})\n\n${p.text || '(no text on this page: see the image)'}`,
            },
            { type: 'image', data: p.png.toString('base64'), mimeType: 'image/png' },
          ],
          structuredContent: { ...meta, text: p.text },
        };
      }),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask the manuals',
      description:
        'Asks the Manual Copilot agent a question; it searches the manuals and answers with numbered citations [1] and their sources (manual, page, snippet, link). `mode` says the form: answer (quoted), pages (no stated value found; `pages` are the closest pages), not_covered (no ready manual covers the asked device), clarify (the question names no device and the closest pages are from several: `choices` lists them with their best page; ask again with `device` set to the chosen manual id to get the answer).',
      inputSchema: {
        question: z.string().trim().min(1).max(4000).describe('the question, as a technician would ask it'),
        manuals: z.array(z.string().min(1).max(200)).max(50).optional().describe('restrict to these manuals (ids or exact titles); default all ready manuals'),
        device: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe('the device the question is about: a manual id or exact title (from `choices` of a clarify reply, or list_manuals)'),
      },
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      call('ask', async () => {
        const answer = await askAgent(args, ctx.baseUrl, ctx.deps, extra.signal);
        if (answer.status !== 'done' && !answer.answer)
          return failure(`The agent could not answer (${answer.status}${answer.errors.length ? `: ${answer.errors.join('; ')}` : ''}).`);
        return json(answer);
      }),
  );

  // Resources: each ready manual (its pages listed inside) and each page's text.
  server.registerResource(
    'manual',
    new ResourceTemplate('manual://{manualId}', {
      list: async () => ({
        resources: (await listLibrary(ctx.baseUrl))
          .filter((m) => m.ready)
          .map((m) => ({ uri: `manual://${m.id}`, name: m.title, mimeType: 'application/json', description: `${m.pages} pages` })),
      }),
    }),
    { title: 'Manual', description: 'A manual: title, status, page count and the URIs of its pages.', mimeType: 'application/json' },
    async (uri, { manualId }) => {
      await ctx.authorize();
      const [m] = await resolveManuals([String(manualId)]);
      const pages = Array.from({ length: m.pageCount ?? 0 }, (_, i) => `manual://${m.id}/pages/${i + 1}`);
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: JSON.stringify({ id: m.id, title: m.title, fileName: m.fileName, status: m.status, pages }, null, 2),
          },
        ],
      };
    },
  );

  server.registerResource(
    'page',
    new ResourceTemplate('manual://{manualId}/pages/{page}', { list: undefined }),
    { title: 'Manual page', description: "One page's text (get_page also returns its image).", mimeType: 'text/plain' },
    async (uri, { manualId, page }) => {
      await ctx.authorize();
      const p = await readPage({ manual: String(manualId), page: Number(page) }, ctx.baseUrl);
      return {
        contents: [
          { uri: uri.href, mimeType: 'text/plain', text: p.text },
          { uri: `${uri.href}#image`, mimeType: 'image/png', blob: p.png.toString('base64') },
        ],
      };
    },
  );

  return server;
}
