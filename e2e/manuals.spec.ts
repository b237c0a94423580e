import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { ManualsPage } from './pages/manuals-page';
import { uniqueSamplePdf } from './sample-pdf';

test.describe('manuals library', () => {
  test('upload the sample manual, watch the stages advance, open a page', async ({ page }) => {
    test.setTimeout(240_000);
    const manuals = new ManualsPage(page);
    await manuals.goto();
    const sample = await uniqueSamplePdf('library');
    await manuals.upload(sample.path);

    const row = manuals.row(sample.fileName);
    await expect(row).toBeVisible();
    const statuses = await manuals.watchStatuses(row);
    expect(statuses.at(-1)).toBe('Ready');
    // The list showed the work moving through its stages, not just a final flip.
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    await expect(row).toContainText('10'); // page count

    await row.getByTestId('manual-link').click();
    await expect(page.getByTestId('page-thumb')).toHaveCount(10);
    // Thumbnails are real images served by the page route.
    const thumb = page.getByTestId('page-thumb').nth(2).locator('img');
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);

    await page.getByTestId('page-thumb').nth(2).click();
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 3 / 10');
    const image = page.getByTestId('page-image');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(500);
    await page.getByTestId('next-page').click();
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 4 / 10');
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 3 / 10');

    // Uploading the same file again is recognised as a duplicate, not a second manual.
    await manuals.goto();
    await manuals.upload(sample.path);
    await expect(page.getByTestId('upload-message').first()).toHaveText('Already in the library.');
    await expect(manuals.row(sample.fileName)).toHaveCount(1);
  });

  test('a file that is not a PDF gets a clear error and the library is untouched', async ({ page, consoleGuard }) => {
    // The browser logs the refused upload's status; the refusal is what this test is about.
    consoleGuard.allow(/status of 422 .* @ http:\/\/[^/]+\/api\/manuals$/, 'the server refuses the non-PDF upload with 422');
    const manuals = new ManualsPage(page);
    await manuals.goto();
    const before = await manuals.rows().count();
    const fake = path.join(os.tmpdir(), `not-a-manual-${Date.now()}.pdf`);
    fs.writeFileSync(fake, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]));
    await manuals.upload(fake);
    await expect(page.getByTestId('upload-item').first()).toHaveAttribute('data-state', 'error');
    await expect(page.getByTestId('upload-message').first()).toContainText('not a PDF');
    await expect(manuals.rows()).toHaveCount(before);
    // An error stays until it is dismissed: its named close button removes it.
    await page.getByRole('button', { name: `Dismiss the message about ${path.basename(fake)}` }).click();
    await expect(page.getByTestId('upload-item')).toHaveCount(0);
  });
});
