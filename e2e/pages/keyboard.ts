import { expect, type Locator, type Page } from '@playwright/test';

/** What has focus, for messages: tag, test id, label or text. */
async function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    const id = el.getAttribute('data-testid');
    const label = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
    return `<${el.tagName.toLowerCase()}${id ? ` data-testid="${id}"` : ''}> ${label}`;
  });
}

/**
 * The focused element shows a visible focus indicator: an outline of at least 1px on itself or
 * on one of its three nearest ancestors (the composer and the upload zone draw it around the
 * field). Nothing to check while focus rests on the page itself.
 */
export async function expectFocusRing(page: Page) {
  const result = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el.tagName === 'MAIN' || el.tagName === 'DIALOG') return { ok: true, what: 'page' };
    let node: HTMLElement | null = el;
    for (let depth = 0; node && depth < 4; depth++, node = node.parentElement) {
      const s = getComputedStyle(node);
      if (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1) return { ok: true, what: '' };
    }
    return {
      ok: false,
      what: `<${el.tagName.toLowerCase()} data-testid="${el.getAttribute('data-testid') ?? ''}"> ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40)}`,
    };
  });
  expect(result.ok, `visible focus ring on ${result.what}`).toBe(true);
}

/** True when the focused element matches the CSS selector. */
async function focusMatches(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => !!document.activeElement && document.activeElement !== document.body && document.activeElement.matches(sel), selector);
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches `target` (a CSS selector or a
 * locator), checking the focus ring at every stop on the way. Fails after `max` presses.
 */
export async function tabTo(page: Page, target: string | Locator, { shift = false, max = 60 } = {}): Promise<Locator> {
  const reached = async () =>
    typeof target === 'string' ? focusMatches(page, target) : target.evaluate((el) => el === document.activeElement).catch(() => false);
  const path: string[] = [];
  for (let i = 0; i <= max; i++) {
    if (await reached()) return page.locator(':focus');
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
    await expectFocusRing(page);
    path.push(await describeFocus(page));
  }
  throw new Error(
    `${shift ? 'Shift+Tab' : 'Tab'} did not reach ${typeof target === 'string' ? target : target.toString()} in ${max} presses; went through:\n  ${path.join('\n  ')}`,
  );
}

/** Presses Tab `times` times (Shift+Tab when `shift`) and checks focus never leaves `container`. */
export async function expectFocusTrapped(page: Page, container: Locator, { times = 8, shift = false } = {}) {
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
    const inside = await container.evaluate((el) => el.contains(document.activeElement) && document.activeElement !== el);
    expect(inside, `focus stays in the dialog after ${i + 1} × ${shift ? 'Shift+Tab' : 'Tab'} (now on ${await describeFocus(page)})`).toBe(true);
    await expectFocusRing(page);
  }
}

/** Tags the focused element so a spec can later check that focus came back to that very element. */
export async function markFocused(page: Page, mark: string): Promise<Locator> {
  await page.evaluate((m) => document.activeElement?.setAttribute('data-kb-mark', m), mark);
  return page.locator(`[data-kb-mark="${mark}"]`);
}
