import { expect, test } from './fixtures';
import { generateStructureManual } from '../lib/sample/testing/tables';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';
import { scannedTablePdf, tempPdf } from './sample-pdf';

/**
 * A stated answer read from a structure unit shows its region of the page: the generated structure
 * manual (lib/sample/testing/tables.ts, every cell known) is uploaded, a question built from a
 * cell's row and column labels gets that cell with both labels, and the crop of its table with the
 * cell framed; the crop opens the page. A "how do I" question gets the whole procedure. The
 * spec's manual is deleted afterwards, so later specs see the library as before.
 */
let file = '';
let question = '';
let value = '';
let row = '';

test.describe('answers read from a table or a procedure show their region', () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    const manual = await generateStructureManual();
    const cell = manual.truth.tables.find((t) => t.id === 'variants')!.cells.find((c) => c.column.join(' ').startsWith('Power'))!;
    question = `What is the ${cell.column.join(' ')} of the ${cell.row}?`;
    value = cell.value;
    row = cell.row;
    const page = await browser.newPage();
    const manuals = new ManualsPage(page);
    await manuals.goto();
    const pdf = tempPdf(manual.pdf, 'orvik-cc4-reference');
    await manuals.upload(pdf.path);
    file = pdf.fileName;
    await manuals.expectReady(manuals.row(file.replace(/\.pdf$/, '')));
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    const manuals = new ManualsPage(page);
    await manuals.goto();
    await manuals.delete(manuals.row(file.replace(/\.pdf$/, '')));
    await page.close();
  });

  test('a table cell answer shows its table cropped with the cell framed, and opens the page', async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.askInNewChat(question);
    await chat.expectLastTurn('done');
    await expect(chat.answer()).toContainText(value);
    await expect(chat.answer()).toContainText(row);
    const region = chat.lastTurn().getByTestId('answer-region');
    await expect(region).toHaveAttribute('data-kind', 'table');
    await expect(region.getByTestId('region-value')).toBeVisible();
    await expect(region).toContainText('the table this answer reads');
    // The crop is a slice of the page, wider than tall for a table row's neighbourhood.
    const box = (await region.boundingBox())!;
    expect(box.width).toBeGreaterThan(box.height);
    await region.press('Enter');
    await expect(page.getByTestId('page-preview')).toBeVisible();
  });

  test('on a phone, a "how do I" answer lists the whole procedure and its crop fits the screen', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    try {
      const chat = new ChatPage(page);
      await chat.askInNewChat('How do I replace the air filter on the CC-4?');
      await chat.expectLastTurn('done');
      // Every step to the last one, which is printed on the next page.
      await expect(chat.answer()).toContainText(/1\..*2\..*3\./s);
      const region = chat.lastTurn().getByTestId('answer-region');
      await expect(region).toHaveAttribute('data-kind', 'procedure');
      const box = (await region.boundingBox())!;
      expect(box.width).toBeLessThanOrEqual(390);
      await region.tap();
      await expect(page.getByTestId('page-preview')).toBeVisible();
    } finally {
      await context.close();
    }
  });
});

/**
 * A table on a scanned page is a place to look, never a stated value: the same generated table
 * page uploaded as an image only, a question built from a cell's labels gets the "pages" form
 * saying what the OCR text seems to read, with the table's crop opening the page.
 */
test.describe('a table on a scanned page is shown as where to look', () => {
  let scan = { path: '', fileName: '', question: '', value: '' };

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    scan = await scannedTablePdf('orvik-cc4-scan');
    const page = await browser.newPage();
    const manuals = new ManualsPage(page);
    await manuals.goto();
    await manuals.upload(scan.path);
    await manuals.expectReady(manuals.row(scan.fileName.replace(/\.pdf$/, '')));
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    const manuals = new ManualsPage(page);
    await manuals.goto();
    await manuals.delete(manuals.row(scan.fileName.replace(/\.pdf$/, '')));
    await page.close();
  });

  test('the reply is the pages form naming the scanned table, with its crop opening the page', async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.askInNewChat(scan.question);
    await chat.expectLastTurn('done');
    const notice = chat.lastTurn().getByTestId('form-notice');
    await expect(notice).toHaveAttribute('data-mode', 'pages');
    await expect(notice).toContainText(/may be in this table on a scanned page/);
    const region = chat.lastTurn().getByTestId('answer-region');
    await expect(region).toHaveAttribute('data-kind', 'table');
    await expect(region).toContainText('the table to check');
    await region.press('Enter');
    await expect(page.getByTestId('page-preview')).toBeVisible();
  });
});
