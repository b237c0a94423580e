import { test as base, expect, type Browser, type BrowserContext, type ConsoleMessage, type Page } from '@playwright/test';

export { expect };

/** One console error or uncaught page error seen in a page of the test. */
interface Issue {
  kind: 'console' | 'pageerror';
  text: string;
  /** Where the message came from (the failing resource for "Failed to load resource"). */
  url: string;
  pageUrl: string;
}

/** What a test declares as expected: a pattern, and why (the reason documents it at the call site). */
interface Allowance {
  pattern: RegExp;
  reason: string;
}

export interface ConsoleGuard {
  /**
   * Lets this test log console errors matching `pattern` (matched against "text @ url"), for an
   * error the test provokes on purpose, e.g. an upload the server must refuse with a 4xx.
   */
  allow(pattern: RegExp, reason: string): void;
}

/**
 * Known-benign noise, ignored in every test. Keep this list short and justify each entry.
 *
 * - A main-frame document that answered 404 is not listed here: it is handled below, only for the
 *   exact URL that was navigated to (the specs open revoked shares and other owners' chats on
 *   purpose and assert the status themselves). A 404 for anything else (a favicon, an image, a
 *   script chunk) is a real error and fails the test.
 */
const GLOBAL_ALLOWED: Allowance[] = [];

const FAILED_RESOURCE = /^Failed to load resource: the server responded with a status of (\d{3})/;

/** What one test (or the hooks between tests) saw. */
class Collector {
  readonly issues: Issue[] = [];
  /** Main-frame navigations that answered 404 (their "Failed to load resource" line is expected). */
  readonly notFoundNavigations = new Set<string>();
  readonly allowances: Allowance[] = [];

  /** The issues no rule explains, formatted for the failure message. */
  unexplained(): string[] {
    const allowed = [...GLOBAL_ALLOWED, ...this.allowances];
    return this.issues
      .filter((issue) => {
        if (issue.kind === 'console') {
          const status = issue.text.match(FAILED_RESOURCE)?.[1];
          if (status === '404' && this.notFoundNavigations.has(issue.url)) return false;
          const line = `${issue.text} @ ${issue.url}`;
          if (allowed.some((a) => a.pattern.test(line))) return false;
        }
        return true;
      })
      .map((i) => `[${i.kind}] ${i.text}${i.url ? ` (at ${i.url})` : ''} — on ${i.pageUrl}`);
  }
}

/** The running test's collector; between tests (beforeAll/afterAll hooks) a holding one. */
let current = new Collector();

// Listeners are attached once per page and report to whichever collector is current when the
// event happens, so a context created before a test's fixture ran still reports to that test.
const watchedPages = new WeakSet<Page>();
const watchedContexts = new WeakSet<BrowserContext>();

function watchPage(page: Page) {
  if (watchedPages.has(page)) return;
  watchedPages.add(page);
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() !== 'error') return;
    current.issues.push({ kind: 'console', text: msg.text(), url: msg.location().url, pageUrl: page.url() });
  });
  page.on('pageerror', (err) => {
    current.issues.push({ kind: 'pageerror', text: `${err.name}: ${err.message}\n${err.stack ?? ''}`, url: '', pageUrl: page.url() });
  });
  page.on('response', (res) => {
    const req = res.request();
    if (res.status() === 404 && req.isNavigationRequest() && req.frame() === page.mainFrame()) current.notFoundNavigations.add(res.url());
  });
}

function watchContext(context: BrowserContext) {
  if (watchedContexts.has(context)) return;
  watchedContexts.add(context);
  for (const page of context.pages()) watchPage(page);
  context.on('page', watchPage);
}

function watchBrowser(browser: Browser) {
  const marked = browser as Browser & { __consoleGuard?: boolean };
  if (marked.__consoleGuard) return;
  marked.__consoleGuard = true;
  for (const context of browser.contexts()) watchContext(context);
  browser.on('context', watchContext);
}

/**
 * `test` for every spec: fails a test whose pages log a console error or throw an uncaught error.
 * Pages opened in hooks (beforeAll) are watched too; what they log is reported by the next test.
 */
export const test = base.extend<{ consoleGuard: ConsoleGuard }, { _watchBrowser: void }>({
  _watchBrowser: [
    async ({ browser }, use) => {
      watchBrowser(browser);
      await use();
    },
    { scope: 'worker', auto: true },
  ],
  consoleGuard: [
    async ({ context }, use) => {
      const fromHooks = current;
      const collector = new Collector();
      current = collector;
      // Usually already watched through the browser's 'context' event; explicit for safety.
      watchContext(context);
      await use({ allow: (pattern, reason) => collector.allowances.push({ pattern, reason }) });
      current = new Collector();
      const problems = [...fromHooks.unexplained().map((p) => `(in a hook before this test) ${p}`), ...collector.unexplained()];
      expect(problems, 'console errors or uncaught page errors').toEqual([]);
    },
    { auto: true },
  ],
});
