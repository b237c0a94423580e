import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { SettingsPage } from './pages/settings-page';

const QUESTION = 'What supply voltage does the HX-200 controller need?';

test.describe('API keys, /api/v1/ask and the MCP endpoint', () => {
  test.beforeAll(ChatPage.sampleManualReadyBeforeAll);

  test('create a key (shown once) → ask over the API and MCP → calls audited → revoke → refused', async ({ page, request }) => {
    test.setTimeout(120_000);
    const settings = new SettingsPage(page);
    await settings.goto();
    const key = await settings.createKey('e2e script');
    expect(key).toMatch(/^mc_[A-Za-z0-9_-]{40,}$/);
    await expect(settings.keys().filter({ hasText: 'e2e script' })).toHaveAttribute('data-revoked', 'false');
    // Shown once: after a reload only its prefix is left.
    await page.reload();
    await expect(settings.newKey()).toHaveCount(0);
    await expect(page.getByText(key)).toHaveCount(0);
    await expect(settings.keys().filter({ hasText: key.slice(0, 8) })).toHaveCount(1);

    const auth = { authorization: `Bearer ${key}` };
    const ask = await request.post('/api/v1/ask', { headers: auth, data: { question: QUESTION } });
    expect(ask.status()).toBe(200);
    const answer = await ask.json();
    expect(answer).toMatchObject({ status: 'done', answer: expect.stringMatching(/\[\d+\]/) });
    expect(answer.sources[0].previewUrl).toMatch(/\/manuals\/[^/]+\?page=\d+/);
    expect((await request.post('/api/v1/ask', { headers: auth, data: { question: '' } })).status()).toBe(400);

    // MCP over Streamable HTTP as raw JSON-RPC (the SDK client is exercised in lib/mcp/mcp.test.ts).
    const mcp = { ...auth, accept: 'application/json, text/event-stream' };
    const tools = await request.post('/api/mcp', { headers: mcp, data: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(tools.status()).toBe(200);
    expect((await tools.json()).result.tools.map((t: { name: string }) => t.name).sort()).toEqual(['ask', 'get_page', 'list_manuals', 'search_manuals']);
    const search = await request.post('/api/mcp', {
      headers: mcp,
      data: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_manuals', arguments: { query: 'supply voltage', k: 3 } } },
    });
    expect((await search.json()).result.structuredContent.passages.length).toBeGreaterThan(0);

    await page.reload();
    await expect(settings.audit()).toContainText('v1:ask');
    await expect(settings.audit()).toContainText('mcp:search_manuals');

    // Revoke asks first: Cancel keeps the key working, confirming revokes it.
    await settings.revokeButCancel('e2e script');
    expect((await request.post('/api/mcp', { headers: mcp, data: { jsonrpc: '2.0', id: 3, method: 'tools/list' } })).status()).toBe(200);
    await settings.revoke('e2e script');
    expect((await request.post('/api/v1/ask', { headers: auth, data: { question: QUESTION } })).status()).toBe(401);
    expect((await request.post('/api/mcp', { headers: mcp, data: { jsonrpc: '2.0', id: 4, method: 'tools/list' } })).status()).toBe(401);
  });
});
