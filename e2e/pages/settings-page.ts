import { expect, type Page } from '@playwright/test';

/** Page object for /settings (API keys). */
export class SettingsPage {
  constructor(readonly page: Page) {}

  nameInput = () => this.page.getByTestId('api-key-name');
  createButton = () => this.page.getByTestId('create-api-key');
  newKey = () => this.page.getByTestId('new-api-key-value');
  keys = () => this.page.getByTestId('api-key-item');
  audit = () => this.page.getByTestId('api-audit');

  async goto() {
    await this.page.goto('/settings');
    await expect(this.page.getByTestId('page-title')).toHaveText('Settings');
  }

  /** Creates a key and returns it (shown once). */
  async createKey(name: string): Promise<string> {
    await this.nameInput().fill(name);
    await this.createButton().click();
    await expect(this.newKey()).toBeVisible();
    return (await this.newKey().innerText()).trim();
  }

  async revoke(name: string) {
    const row = this.keys().filter({ hasText: name });
    await row.getByTestId('revoke-api-key').click();
    await expect(row).toHaveAttribute('data-revoked', 'true');
  }
}
