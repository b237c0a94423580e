/**
 * A technician's interface: each point checked at 1280×800 and on a 390×844 phone.
 * The manuals are the generated sample (and variants of it) uploaded through the browser.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { generateLargeManual } from '../lib/sample/large';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';
import { samplePdfPath, uniqueSamplePdf } from './sample-pdf';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800, phone: false },
  { name: 'phone', width: 390, height: 844, phone: true },
] as const;

const SPEC_QUESTION = 'What supply voltage does the HX-200 controller need?';
/** Words of the agent's internals that must not show unless the reader asks for technical detail. */
const ENGINEER_WORDS = /\b(RULES|WORKFLOW|coverage|fast_vector_search|hybrid_search|colqwen_search|text_response|guarantees|score)\b/;

/** The sample with another PDF title (and so another sha256). */
async function sampleTitled(title: string, tag: string): Promise<{ path: string; fileName: string }> {
  const doc = await PDFDocument.load(fs.readFileSync(await samplePdfPath()), { updateMetadata: false });
  doc.setTitle(title);
  doc.setSubject(`${tag} ${Date.now()}`);
  const fileName = `scan-${tag}-${Date.now().toString(36)}.pdf`;
  const file = path.join(os.tmpdir(), 'mc-e2e-sample', fileName);
  fs.writeFileSync(file, await doc.save());
  return { path: file, fileName };
}

/** Citation numbers as shown, in reading order. */
async function shownCitations(turn: Locator): Promise<number[]> {
  return (await turn.getByTestId('citation').allTextContents()).map((t) => Number(t.trim()));
}

/** 1..n in order of first use: each new number is one more than the largest seen so far. */
function expectFirstUseOrder(numbers: number[]) {
  let max = 0;
  for (const n of numbers) {
    if (n > max) {
      expect(n, `citations ${numbers.join(',')}`).toBe(max + 1);
      max = n;
    }
  }
  expect(max).toBeGreaterThan(0);
}

async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const vp = page.viewportSize()!;
  return !!box && box.y >= 0 && box.y + Math.min(box.height, 40) <= vp.height;
}

for (const vp of VIEWPORTS) {
  test.describe(`a technician's session at ${vp.name} ${vp.width}×${vp.height}`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height }, hasTouch: vp.phone, isMobile: vp.phone });

    test.beforeAll(ChatPage.sampleManualReadyBeforeAll);

    test('1, 2, 7: answer first with a plain trail; sources 1..n per answer; well-formed follow-ups', async ({ page }) => {
      test.setTimeout(180_000);
      const chat = new ChatPage(page);
      await chat.askInNewChat(SPEC_QUESTION);
      const turn = chat.lastTurn();

      // 1. The question and the start of the answer are on screen; the trail is one plain line.
      await expect(chat.answer()).not.toBeEmpty();
      expect(await inViewport(page, turn.getByTestId('question')), 'question still in view').toBe(true);
      const toggle = turn.getByTestId('trail-toggle');
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(turn.getByTestId('trail-summary')).toHaveText(/^Searched .+ · (cited|looked at) \d+ pages? · \d+(\.\d)? s/);
      expect(await turn.innerText(), 'no engineer words on the answer').not.toMatch(ENGINEER_WORDS);
      // It opens into plain steps; the technical detail is one more click away.
      await toggle.click();
      await expect(turn.getByTestId('trail-step').first()).toBeVisible();
      await expect(
        turn
          .locator('[data-testid="trail-step"][data-kind="search"]')
          .filter({ hasText: /Searched|Looked|Read/ })
          .first(),
      ).toContainText('page');
      await expect(turn.getByTestId('trail-technical')).toBeHidden();
      expect(await turn.innerText()).not.toMatch(ENGINEER_WORDS);
      await turn.getByTestId('trail-details-toggle').click();
      await expect(turn.getByTestId('trail-event').first()).toBeVisible();

      // 2. Numbered 1..n in the order the answer uses them; the sources list matches.
      const first = await shownCitations(turn);
      expectFirstUseOrder(first);
      const sources = await turn.getByTestId('source-item').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-ref'))));
      expect(sources).toEqual(sources.map((_, i) => i + 1));
      // Each chip opens the source its number names.
      await turn.getByTestId('citation').first().click();
      await expect(chat.preview()).toHaveAttribute('aria-label', new RegExp(`^Source ${first[0]}: page \\d+`));
      await page.keyboard.press('Escape');

      // A second answer starts again at 1, though the agent's own numbers went on.
      await chat.ask('What does error E05 mean on the HX-200?');
      await chat.expectLastTurn('done');
      const second = await shownCitations(chat.lastTurn());
      expectFirstUseOrder(second);
      const secondSources = await chat
        .lastTurn()
        .getByTestId('source-item')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-ref'))));
      expect(secondSources).toEqual(secondSources.map((_, i) => i + 1));

      // 7. Follow-ups are questions a person would ask, or none.
      for (const q of await chat.lastTurn().getByTestId('follow-up').allTextContents()) {
        expect(q).toMatch(/^(What|How|Which|Where|When|Why|Is|Are|Does|Do|Can)\b.+\?$/);
        expect(q).not.toMatch(/about (note|caution|warning|contents|to\b)|tools and parts/i);
      }
    });

    test('4, 8: a junk PDF title gives way to the cover; rename is used everywhere', async ({ page }) => {
      test.setTimeout(240_000);
      const manuals = new ManualsPage(page);
      const chat = new ChatPage(page);
      const junk = await sampleTitled('CPY Document Title', vp.name);
      await manuals.goto();
      await manuals.upload(junk.path);
      const row = manuals.row(junk.fileName);
      await manuals.expectReady(row);
      // The upload's own line goes once the row says Ready (it used to stay).
      await expect(page.getByTestId('upload-item').filter({ hasText: junk.fileName })).toHaveCount(0);
      const link = row.getByTestId('manual-link');
      await expect(link).not.toHaveText(/Document Title|scan-/);
      await expect(link).toContainText('HX-200');
      // One date format.
      if (!vp.phone) await expect(row.locator('time')).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);

      // Rename.
      const title = `Press controller ${vp.name} ${Date.now().toString(36)}`;
      await row.getByTestId('rename-manual').click();
      await row.getByTestId('rename-input').fill(title);
      await row.getByTestId('rename-save').click();
      await expect(row.getByTestId('manual-link')).toHaveText(title);

      // The manual page, the scope picker and the citations use it.
      await row.getByTestId('manual-link').click();
      await expect(page.getByTestId('page-title')).toHaveText(title);
      await chat.goto('/');
      // The composer takes the focus once the page is live (not on touch screens): open the picker after that.
      if (!vp.phone) await expect(chat.input()).toBeFocused();
      await page.waitForLoadState('networkidle');
      await page.getByTestId('scope-picker').click();
      const options = page
        .getByTestId('scope-panel')
        .locator('label')
        .filter({ has: page.getByTestId('scope-option') });
      await expect(options.filter({ hasText: title })).toHaveCount(1);
      // Only the renamed manual (the library holds other copies of the sample).
      for (const other of await options.filter({ hasNotText: title }).all()) await other.getByTestId('scope-option').uncheck();
      await expect(page.getByTestId('scope-picker')).toHaveAttribute('aria-label', `Search in: ${title}`);
      await page.keyboard.press('Escape');
      await chat.ask(SPEC_QUESTION);
      await chat.expectLastTurn('done');
      await expect(chat.lastTurn().getByTestId('trail-summary')).toContainText(title);
      await chat.citations().first().click();
      await expect(chat.preview().getByRole('heading', { level: 2 })).toHaveText(title);
      await page.keyboard.press('Escape');

      // On loopback every browser is the local admin (the loopback access model), so another browser
      // may rename too; a member on a network may not (e2e/security-access.spec.ts, lib/manuals/service.test.ts).
    });

    test('5: stage labels say what is happening, % never goes back, a small manual is not stuck behind a long one', async ({ page }) => {
      test.setTimeout(420_000);
      const manuals = new ManualsPage(page);
      // A long manual with scanned pages (OCR), then the 10-page sample.
      const big = path.join(os.tmpdir(), 'mc-e2e-sample', `long-scan-${vp.name}-${Date.now().toString(36)}.pdf`);
      fs.writeFileSync(big, await generateLargeManual({ pages: 30, scannedEvery: 3, seed: Date.now() % 100_000 }));
      const small = await uniqueSamplePdf(`fair-${vp.name}`);
      await manuals.goto();
      await manuals.upload(big, small.path);
      const bigRow = manuals.row(path.basename(big));

      const labels = new Set<string>();
      const percents: number[] = [];
      let smallReadyWhileBigWorking = false;
      // One snapshot of both rows per tick, read in the page (a locator would wait for a vanished element).
      const snapshot = () =>
        page.evaluate(
          ([bigName, smallName]) => {
            const row = (name: string) => [...document.querySelectorAll('[data-testid="manual-row"]')].find((r) => r.textContent?.includes(name));
            const big = row(bigName);
            const text = (id: string) => big?.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? null;
            return {
              big: big?.getAttribute('data-status') ?? '',
              small: row(smallName)?.getAttribute('data-status') ?? '',
              stage: text('manual-stage'),
              progress: text('manual-progress'),
            };
          },
          [path.basename(big), small.fileName],
        );
      // Sampled until the long manual settles: the labels and percentages seen on the way.
      await expect
        .poll(
          async () => {
            const now = await snapshot();
            if (now.small === 'ready' && now.big !== 'ready') smallReadyWhileBigWorking = true;
            if (now.big === 'ready' || now.big === 'failed') return now.big;
            if (now.stage) labels.add(now.stage);
            const pct = now.progress?.match(/(\d+)%/);
            if (pct) percents.push(Number(pct[1]));
            return now.big;
          },
          { timeout: 400_000, intervals: [250] },
        )
        .toMatch(/^(ready|failed)$/);
      await manuals.expectReady(bigRow);
      expect(smallReadyWhileBigWorking, 'the 10-page manual was ready before the long scan finished').toBe(true);
      // Plain stage labels; OCR is named while it runs.
      for (const label of labels)
        expect(label).toMatch(/^(Waiting|Reading pages|Reading scanned pages|Preparing page images|Making it searchable|Saving the search index)/);
      expect(
        [...labels].some((l) => /scanned|OCR/.test(l)),
        `labels seen: ${[...labels].join(' | ')}`,
      ).toBe(true);
      expect(percents.length).toBeGreaterThan(2);
      for (let i = 1; i < percents.length; i++) expect(percents[i], `percent sequence ${percents.join(',')}`).toBeGreaterThanOrEqual(percents[i - 1]);
      expect(new Set(percents).size, 'the bar moved in steps').toBeGreaterThan(2);
    });

    test('6: fit width, zoom with sharper images, rotate, a loading state, a phone preview without sideways panning', async ({ page }) => {
      test.setTimeout(180_000);
      const chat = new ChatPage(page);
      await chat.askInNewChat(SPEC_QUESTION);

      // The citation preview: the page's full width, the highlight on screen.
      await chat.citations().first().click();
      const preview = chat.preview();
      await expect(preview.getByTestId('page-frame')).toHaveAttribute('data-loaded', 'true');
      const previewBox = (await preview.boundingBox())!;
      if (vp.phone) expect(previewBox.width, 'the preview fills the phone screen').toBeGreaterThanOrEqual(vp.width - 1);
      const zoomable = preview.getByTestId('zoomable-page');
      await expect(zoomable.getByTestId('zoom-level')).toHaveText('Fit width');
      const previewFrame = (await preview.getByTestId('page-frame').boundingBox())!;
      expect(previewFrame.width, 'the page fits the screen width').toBeLessThanOrEqual((await preview.getByTestId('page-scroller').boundingBox())!.width);
      const highlight = chat.highlights().first();
      await expect(highlight).toBeVisible();
      await expect.poll(() => inViewport(page, highlight), { message: 'highlight scrolled into view' }).toBe(true);
      const hb = (await highlight.boundingBox())!;
      if (!vp.phone) expect(hb.height, 'highlighted line tall enough to read').toBeGreaterThanOrEqual(12);
      await page.keyboard.press('Escape');

      // The viewer: the page's full width at first.
      await chat.citations().first().click();
      await chat.preview().getByTestId('open-in-viewer').click();
      await expect(page).toHaveURL(/\/manuals\/[\w-]+\?page=\d+/);
      const viewer = page.getByTestId('zoomable-page');
      await expect(page.getByTestId('zoom-level')).toHaveText('Fit width');
      const scroller = (await page.getByTestId('page-scroller').boundingBox())!;
      const frame = (await page.getByTestId('page-frame').boundingBox())!;
      expect(frame.width).toBeLessThanOrEqual(scroller.width);
      expect(frame.width, 'the page fills the width').toBeGreaterThan(scroller.width - 40);

      // Zoom in: larger, and a sharper render replaces the stored image.
      const before = Number(await viewer.getAttribute('data-scale'));
      for (let i = 0; i < 6; i++) await page.getByTestId('zoom-in').click();
      expect(Number(await viewer.getAttribute('data-scale'))).toBeGreaterThan(before * 3);
      const sharp = page.getByTestId('page-image-sharp');
      await expect(sharp).toHaveAttribute('src', /\/zoom\?scale=(3|4\.5)$/);
      await expect.poll(() => sharp.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(1200);
      // Rotate a quarter turn: the page lies sideways.
      await page.getByTestId('zoom-fit').click();
      await page.getByTestId('rotate-page').click();
      await expect(viewer).toHaveAttribute('data-rotation', '90');
      const turned = (await page.getByTestId('page-frame').boundingBox())!;
      expect(turned.width, 'rotated page is wider than tall').toBeGreaterThan(turned.height);

      // A slow image shows a loading state, not a blank white page: the image is held until the
      // loading state has been seen.
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/pages/*/image', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByTestId('next-page').click();
      await expect(page.getByTestId('page-loading')).toBeVisible();
      release();
      await expect(page.getByTestId('page-frame')).toHaveAttribute('data-loaded', 'true');
      await expect(page.getByTestId('page-loading')).toHaveCount(0);
      await page.unroute('**/pages/*/image');
    });

    test('8: theme, Stop on the first question, share confirmation, providers in plain words, how to add manuals', async ({ page }) => {
      test.setTimeout(180_000);
      const chat = new ChatPage(page);
      await chat.goto('/');
      // The empty chat says how to add one's own manuals.
      await expect(page.getByTestId('add-manuals-link').first()).toBeVisible();

      // The first click of the theme toggle changes the look (light system → dark).
      await page.getByTestId('theme-toggle').click();
      await expect(page.locator('html')).toHaveClass(/dark/);
      await page.getByTestId('theme-toggle').click();
      await expect(page.locator('html')).not.toHaveClass(/dark/);

      // Stop on the very first question: the chat still gets its title and its place in the list.
      await ChatPage.slowTurns(page, 800);
      await chat.goto('/');
      const question = 'What IP rating does the HX-200 enclosure have?';
      await chat.ask(question);
      await chat.stopButton().click();
      await chat.expectLastTurn('cancelled', 15_000);
      await expect(page.getByTestId('chat-title')).toHaveText(question);
      if (vp.phone) await page.getByTestId('open-sidebar').click();
      await expect(chat.sessionItems().filter({ hasText: question, visible: true })).toHaveCount(1);
      if (vp.phone) await page.getByTestId('close-sidebar').click();

      // Share asks before making anything public.
      await chat.lastTurn().getByTestId('retry-button').click();
      await chat.expectLastTurn('done');
      await chat.shareButton().click();
      await expect(page.getByTestId('share-confirm')).toContainText('public');
      await expect(chat.shareLink()).toHaveCount(0);
      await page.keyboard.press('Escape');

      // Providers: what each part does, in words, and whether it is the best available here (Settings).
      await page.goto('/settings');
      const providers = page.getByTestId('provider-summary');
      await expect(providers).toBeVisible();
      const text = await providers.innerText();
      expect(text).not.toMatch(/offline offline|offline local|hashed-ngrams@/);
      for (const role of ['vectorDb', 'embeddings', 'llm', 'ocr']) {
        await expect(page.getByTestId(`provider-${role}`).getByTestId('provider-verdict')).toHaveText(/best available here|basic/);
      }
    });
  });
}
