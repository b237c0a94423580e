import { expect, type Page } from '@playwright/test';

/** Page object for /settings (providers, API keys, users). */
export class SettingsPage {
  constructor(readonly page: Page) {}

  nameInput = () => this.page.getByTestId('api-key-name');
  createButton = () => this.page.getByTestId('create-api-key');
  newKey = () => this.page.getByTestId('new-api-key-value');
  keys = () => this.page.getByTestId('api-key-item');
  audit = () => this.page.getByTestId('api-audit');
  providers = () => this.page.getByTestId('provider-summary');
  /** The confirmation that is open (Settings has one per kind: keys, users). */
  confirmDialog = () => this.page.locator('[data-testid="confirm-dialog"][open]');
  users = () => this.page.getByTestId('users');
  userItems = () => this.page.getByTestId('user-item');

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

  /** Revoke asks first: confirming revokes the key. */
  async revoke(name: string) {
    const row = this.keys().filter({ hasText: name });
    await row.getByTestId('revoke-api-key').click();
    await expect(this.confirmDialog()).toBeVisible();
    await expect(this.confirmDialog()).toContainText(name);
    await this.confirmDialog().getByTestId('confirm-button').click();
    await expect(this.confirmDialog()).toBeHidden();
    await expect(row).toHaveAttribute('data-revoked', 'true');
  }

  /** Revoke, then Cancel in the confirmation: the key stays active. */
  async revokeButCancel(name: string) {
    const row = this.keys().filter({ hasText: name });
    await row.getByTestId('revoke-api-key').click();
    await expect(this.confirmDialog()).toBeVisible();
    await this.confirmDialog().getByTestId('cancel-button').click();
    await expect(this.confirmDialog()).toBeHidden();
    await expect(row).toHaveAttribute('data-revoked', 'false');
  }

  /** Adds a user with the form (network mode, admins). */
  async addUser(email: string, password: string) {
    await this.page.getByTestId('new-user-email').fill(email);
    await this.page.getByTestId('new-user-password').fill(password);
    await this.page.getByTestId('add-user').click();
    await expect(this.userItems().filter({ hasText: email })).toHaveCount(1);
  }

  /** Remove asks first: Cancel keeps the user, confirming removes them. */
  async removeUser(email: string, { confirm = true } = {}) {
    const row = this.userItems().filter({ hasText: email });
    await row.getByTestId('remove-user').click();
    await expect(this.confirmDialog()).toBeVisible();
    await expect(this.confirmDialog()).toContainText(email);
    await this.confirmDialog()
      .getByTestId(confirm ? 'confirm-button' : 'cancel-button')
      .click();
    await expect(this.confirmDialog()).toBeHidden();
    await expect(row).toHaveCount(confirm ? 0 : 1);
  }
}
