import { expect, test } from './fixtures';
import { AppShell } from './pages/app-shell';

test.describe('app shell', () => {
  test('opens the home page, switches theme, navigates to Manuals and back', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    const shell = new AppShell(page);
    await shell.expectTitle('Ask your manuals');
    await expect(shell.navChat()).toHaveAttribute('aria-current', 'page');

    // Follows the system: light here.
    expect(await shell.isDark()).toBe(false);
    const lightBg = await shell.backgroundColor();

    // The first click on a light system shows dark at once, never "light" again.
    await shell.themeToggle().click();
    await expect(shell.themeToggle()).toHaveAttribute('data-theme-choice', 'dark');
    expect(await shell.isDark()).toBe(true);
    expect(await shell.backgroundColor()).not.toBe(lightBg);

    // The choice survives navigation and reload.
    await shell.navManuals().click();
    await expect(page).toHaveURL(/\/manuals$/);
    await shell.expectTitle('Manuals');
    await expect(shell.navManuals()).toHaveAttribute('aria-current', 'page');
    await page.reload();
    expect(await shell.isDark()).toBe(true);

    await shell.navChat().click();
    await expect(page).toHaveURL(/\/$/);
    await shell.expectTitle('Ask your manuals');

    // Back to light, which is what the system shows: the page follows the system again (now dark).
    await shell.themeToggle().click();
    await expect(shell.themeToggle()).toHaveAttribute('data-theme-choice', 'system');
    expect(await shell.isDark()).toBe(false);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => shell.isDark()).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => shell.isDark()).toBe(false);
  });

  test('the settings page shows which provider serves each role', async ({ page }) => {
    await page.goto('/settings');
    await expect(page.getByTestId('provider-vectorDb')).toContainText('LanceDB');
    await expect(page.getByTestId('provider-llm')).toContainText('None');
    await expect(page.getByTestId('provider-ocr')).toContainText(/tesseract/i);
  });

  test('/favicon.ico sends the browser to the app icon on the origin it used', async ({ request }) => {
    const res = await request.get('/favicon.ico', { maxRedirects: 0 });
    expect(res.status()).toBe(308);
    // Relative: the server's own name for itself ("localhost") is another origin to a browser on 127.0.0.1.
    expect(res.headers().location).toBe('/icon.svg');
    const icon = await request.get('/favicon.ico');
    expect(icon.headers()['content-type']).toContain('image/svg');
  });

  test('health reports version, storage and providers', async ({ request }) => {
    const res = await request.get('/api/health');
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.ok).toBe(true);
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.dataDir.ok).toBe(true);
    expect(body.db.ok).toBe(true);
    expect(Object.keys(body.providers).sort()).toEqual(['decider', 'embeddings', 'llm', 'multiVector', 'ocr', 'reranker', 'vectorDb', 'vlm']);
    // The OCR engine that runs: the native binary when on PATH, else the WebAssembly fallback.
    expect(['tesseract', 'tesseract.js']).toContain(body.providers.ocr.provider);
    // Memory per process: the server's own, and the ingest worker it started (built JavaScript).
    expect(body.memory.rssMb).toBeGreaterThan(0);
    expect(body.memory.worker.pid).not.toBe(body.memory.pid);
    expect(body.memory.worker.rssMb).toBeGreaterThan(0);
  });
});
