import { expect, type Page } from '@playwright/test';

/** Page object for the header shared by every page. */
export class AppShell {
  constructor(private readonly page: Page) {}

  themeToggle = () => this.page.getByTestId('theme-toggle');
  navChat = () => this.page.getByTestId('nav-chat');
  navManuals = () => this.page.getByTestId('nav-manuals');
  title = () => this.page.getByTestId('page-title');

  async isDark(): Promise<boolean> {
    return this.page.evaluate(() => document.documentElement.classList.contains('dark'));
  }

  async backgroundColor(): Promise<string> {
    return this.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  }

  async expectTitle(text: string) {
    await expect(this.title()).toHaveText(text);
  }
}
