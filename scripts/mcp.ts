/**
 * `npm run mcp`: the MCP server on stdio, for a desktop assistant that starts it as a subprocess.
 * It reads the same DATA_DIR as the web app and acts with the API key in MCP_API_KEY (its owner,
 * rate limit and audit trail, checked on every call, so revoking the key stops it). Logs go to
 * stderr: stdout carries the protocol.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { authenticate } from '../lib/api/keys';
import { createMcpServer } from '../lib/mcp/server';
import { getConfig } from '../lib/config';

// stdout carries the protocol: anything a library logs goes to stderr instead.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

async function main() {
  const config = getConfig();
  if (!config.mcpApiKey) {
    console.error('MCP_API_KEY is not set: create a key on the Settings page (/settings) and pass it in the environment.');
    process.exit(2);
  }
  const authorization = `Bearer ${config.mcpApiKey}`;
  await authenticate(authorization).catch((err: Error) => {
    console.error(`MCP_API_KEY refused: ${err.message}`);
    process.exit(2);
  });
  const server = createMcpServer({
    authorize: () => authenticate(authorization),
    baseUrl: config.publicUrl ?? `http://localhost:${config.port}`,
  });
  await server.connect(new StdioServerTransport());
  console.error(`[mcp] Manual Copilot MCP server on stdio (DATA_DIR ${config.dataDir})`);
}

main().catch((err) => {
  console.error('[mcp] failed to start', err);
  process.exit(1);
});
