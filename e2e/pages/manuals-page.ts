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
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const status = (await row.getByTestId('manual-status').textContent())?.trim() ?? '';
      if (status && seen[seen.length - 1] !== status) seen.push(status);
      if (status === 'Ready' || status === 'Failed') return seen;
      await this.page.waitForTimeout(100);
    }
    throw new Error(`manual did not settle; statuses seen: ${seen.join(' → ')}`);
  }

  async expectReady(row: Locator) {
    await expect(row.getByTestId('manual-status')).toHaveText('Ready', { timeout: 180_000 });
  }
}
