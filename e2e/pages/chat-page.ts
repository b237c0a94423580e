import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { samplePdfPath } from '../sample-pdf';
import { ManualsPage } from './manuals-page';

/** What the trail recorder saw while a turn streamed (installed in the page before asking). */
export interface TrailRecord {
  /** Most trail events visible at one time while the turn was still running. */
  maxWhileRunning: number;
  /** ms from the question being sent to the first trail row. */
  firstEventMs: number | null;
  /** The answer element was on screen while the turn was running (it streamed). */
  answerWhileRunning: boolean;
}

/**
 * A question the sample manual does not answer (lib/sample/facts.ts: no page of the Acme HX-200
 * manual states an MTBF): the offline answer declines and offers the closest pages as cards.
 */
export const UNANSWERED_QUESTION = 'What is the MTBF of the HX-200 controller?';

/** Page object for the chat (/, /chat/[id]) and the shared view (/share/[id]). */
export class ChatPage {
  constructor(readonly page: Page) {}

  input = () => this.page.getByTestId('chat-input');
  sendButton = () => this.page.getByTestId('send-button');
  stopButton = () => this.page.getByTestId('stop-button');
  turns = () => this.page.getByTestId('turn');
  lastTurn = () => this.turns().last();
  trailEvents = (scope: Locator | Page = this.page) => scope.getByTestId('trail-event');
  answer = (turn: Locator = this.lastTurn()) => turn.getByTestId('answer');
  citations = (turn: Locator = this.lastTurn()) => turn.getByTestId('citation');
  preview = () => this.page.getByTestId('page-preview');
  highlights = () => this.preview().getByTestId('highlight');
  /** Boxes around the quoted values themselves (data-value, data-box in page points). */
  valueHighlights = () => this.preview().getByTestId('highlight-value');
  shareButton = () => this.page.getByTestId('share-button');
  shareLink = () => this.page.getByTestId('share-link');
  revokeShare = () => this.page.getByTestId('revoke-share');
  sessionItems = () => this.page.getByTestId('session-item');

  async goto(path = '/') {
    return this.page.goto(path);
  }

  /** Uploads the generated sample manual on /manuals (a duplicate if already there) and waits until it is ready. */
  async ensureSampleManualReady() {
    const manuals = new ManualsPage(this.page);
    await manuals.goto();
    await manuals.upload(await samplePdfPath());
    const row = manuals.row('acme-hx200-manual');
    await expect(row).toHaveCount(1);
    await manuals.expectReady(row);
  }

  /**
   * For a spec's `test.beforeAll`: readies the sample manual once, in a page of its own, before the
   * spec's tests ask about it (the upload and ingest may take minutes on a cold server).
   */
  static async sampleManualReadyBeforeAll({ browser }: { browser: Browser }) {
    test.setTimeout(240_000);
    const page = await browser.newPage();
    await new ChatPage(page).ensureSampleManualReady();
    await page.close();
  }

  /** Watches the DOM for trail rows and the turn status while the next question streams. */
  async recordTrail() {
    await this.page.evaluate(() => {
      const w = window as unknown as { __trail: { maxWhileRunning: number; firstEventMs: number | null; answerWhileRunning: boolean; t0: number } };
      w.__trail = { maxWhileRunning: 0, firstEventMs: null, answerWhileRunning: false, t0: 0 };
      const check = () => {
        const turns = document.querySelectorAll('[data-testid="turn"]');
        const last = turns[turns.length - 1];
        if (!last) return;
        if (!w.__trail.t0) w.__trail.t0 = performance.now();
        const rows = last.querySelectorAll('[data-testid="trail"] li').length;
        if (rows && w.__trail.firstEventMs === null) w.__trail.firstEventMs = performance.now() - w.__trail.t0;
        if (last.getAttribute('data-status') === 'running') {
          w.__trail.maxWhileRunning = Math.max(w.__trail.maxWhileRunning, last.querySelectorAll('[data-testid="trail-event"]').length);
          if (last.querySelector('[data-testid="answer"]')) w.__trail.answerWhileRunning = true;
        }
      };
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  }

  async trailRecord(): Promise<TrailRecord> {
    return this.page.evaluate(() => {
      const { maxWhileRunning, firstEventMs, answerWhileRunning } = (window as unknown as { __trail: TrailRecord }).__trail;
      return { maxWhileRunning, firstEventMs, answerWhileRunning };
    });
  }

  /** Types the question and presses Enter. */
  async ask(question: string) {
    await expect(this.input()).toBeEnabled();
    await this.input().fill(question);
    await this.input().press('Enter');
  }

  /** Opens a new chat, asks `question` and waits until its answer is done. */
  async askInNewChat(question: string) {
    await this.goto('/');
    await this.ask(question);
    await this.expectLastTurn('done');
  }

  async expectLastTurn(status: 'done' | 'cancelled' | 'failed', timeout = 60_000) {
    await expect(this.lastTurn()).toHaveAttribute('data-status', status, { timeout });
  }

  /** The chat id from /chat/[id] (the URL switches there when the first question starts). */
  async chatId(): Promise<string> {
    await expect(this.page).toHaveURL(/\/chat\/[\w-]+$/);
    return new URL(this.page.url()).pathname.split('/').pop()!;
  }

  /** Makes every turn pause between agent events (honoured by the server only when MC_E2E=1). */
  static async slowTurns(page: Page, ms: number) {
    await page.addInitScript((delay) => {
      (window as unknown as { __mcDebugDelayMs: number }).__mcDebugDelayMs = delay;
    }, ms);
  }
}
