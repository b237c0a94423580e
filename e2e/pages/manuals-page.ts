import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for /manuals and /manuals/[id]. */
export class ManualsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/manuals');
  }

  uploadInput = () => this.page.getByTestId('upload-input');
  rows = () => this.page.getByTestId('manual-row');
  row = (title: string | RegExp): Locator => this.rows().filter({ hasText: title });

  async upload(...files: string[]) {
    await this.uploadInput().setInputFiles(files);
  }

  /** Collects every status label the row shows until it settles (ready or failed). */
  async watchStatuses(row: Locator, timeoutMs = 180_000): Promise<string[]> {
    const seen: string[] = [];
    await expect
      .poll(
        async () => {
          const status = (await row.getByTestId('manual-status').textContent())?.trim() ?? '';
          if (status && seen[seen.length - 1] !== status) seen.push(status);
          return status;
        },
        { timeout: timeoutMs, intervals: [100], message: 'the manual settles: Ready or Failed' },
      )
      .toMatch(/^(Ready|Failed)$/);
    return seen;
  }

  /** Delete asks first: Cancel keeps the manual, confirming removes its row. */
  async delete(row: Locator, { confirm = true } = {}) {
    await row.getByTestId('delete-manual').click();
    const dialog = this.page.getByTestId('confirm-dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByTestId(confirm ? 'confirm-button' : 'cancel-button').click();
    await expect(dialog).toBeHidden();
    if (confirm) await expect(row).toHaveCount(0);
    else await expect(row).toHaveCount(1);
  }

  async expectReady(row: Locator) {
    await expect(row.getByTestId('manual-status')).toHaveText('Ready', { timeout: 180_000 });
  }
}
