import { expect, test } from './fixtures';
import { ManualsPage } from './pages/manuals-page';
import { uniqueSamplePdf } from './sample-pdf';

/**
 * The app's words as a newcomer meets them: the upload message goes away, the progress percent only moves
 * forward, the born-digital sample reports no scanned pages, and the chat names the device in
 * short ("the HX-200 Hydraulic Press Controller", never "the The … manual").
 */
test('words and progress: a dismissable upload message, a forward-only percent, the device named in short', async ({ page }) => {
  test.setTimeout(240_000);
  const manuals = new ManualsPage(page);
  await manuals.goto();
  const sample = await uniqueSamplePdf('words');
  await manuals.upload(sample.path);

  // The upload's message can be closed by its named button.
  const item = page.getByTestId('upload-item').filter({ hasText: sample.fileName });
  await expect(item).toHaveAttribute('data-state', 'done');
  await page.getByRole('button', { name: `Dismiss the message about ${sample.fileName}` }).click();
  await expect(item).toHaveCount(0);

  // The percent the row shows, read on every poll until the manual is ready: it never goes back.
  const row = manuals.row(sample.fileName);
  const percents: number[] = [];
  const stages = new Set<string>();
  await expect
    .poll(
      async () => {
        // One read of the row (status, percent, stage together): a row that turns ready between
        // two separate reads has no progress line left to wait for.
        const now = await row.evaluate((el) => {
          const text = (id: string) => el.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? '';
          return { status: text('manual-status'), progress: text('manual-progress'), stage: text('manual-stage') };
        });
        const pct = now.progress.match(/(\d+)%/)?.[1];
        if (pct) percents.push(Number(pct));
        if (now.stage) stages.add(now.stage);
        return now.status;
      },
      { timeout: 180_000, intervals: [100] },
    )
    .toBe('Ready');
  for (let i = 1; i < percents.length; i++) expect(percents[i], `percents seen: ${percents.join(' ')}`).toBeGreaterThanOrEqual(percents[i - 1]);
  // Born-digital: its one raster figure is read by OCR, but no page is a scanned page.
  expect([...stages].filter((s) => /scanned/.test(s))).toEqual([]);
  await expect(row).not.toContainText(/\d+ scanned/);

  // The chat: the scope picker and the example questions name the device, once and in short.
  await page.goto('/');
  // The library holds other specs' manuals too: search one copy of the sample, and the picker
  // names it in short.
  await page.waitForLoadState('networkidle');
  const picker = page.getByTestId('scope-picker');
  await picker.click();
  const options = page
    .getByTestId('scope-panel')
    .locator('label')
    .filter({ has: page.getByTestId('scope-option') });
  let kept = false;
  for (const option of await options.all()) {
    if (!kept && /HX-200 Hydraulic Press Controller/.test((await option.textContent()) ?? '')) {
      kept = true;
      continue;
    }
    await option.getByTestId('scope-option').uncheck();
  }
  await page.keyboard.press('Escape');
  await expect(picker).toHaveText('HX-200 Hydraulic Press Controller');
  const examples = page.getByTestId('example-question');
  await expect(examples.first()).toBeVisible();
  const texts = await examples.allTextContents();
  expect(
    texts.some((t) => t.includes('the HX-200 Hydraulic Press Controller')),
    texts.join(' | '),
  ).toBe(true);
  for (const t of texts) {
    expect(t).not.toMatch(/\bthe the\b/i);
    expect(t).not.toContain('Service Manual');
  }
});
