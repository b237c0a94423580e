/**
 * A generated test manual whose structure is known exactly: tables with spanning
 * headers, units in headers, a table continued across a page break with its header repeated, a
 * table in one column of a two-column page, a fault-code list, labelled values, a numbered
 * procedure that runs over a page break and a raster figure with callout labels. The ground truth
 * lists every body cell (row label × column header path → value), so tests can measure the
 * structure reader cell by cell. `imageOnlyCopy` re-embeds rendered pages as images: a scanned
 * copy with the same ground truth for the OCR path.
 *
 * The device (an invented climate test chamber controller) and every value are made up here; no
 * word comes from a question set.
 */
import { PDFDocument, type PDFPage } from 'pdf-lib';
import { CONTENT_WIDTH, drawPageFrame, embedFonts, INK, MARGIN, PAGE, PageWriter, SIZE, type Fonts } from '../layout';
import { registerFont } from '../raster';

/** One header cell of a grid; `span` columns wide (default 1). */
interface HeaderCell {
  text: string;
  span?: number;
}

interface TruthCell {
  row: string;
  /** Header texts over the cell's column, top row first (spanning headers included). */
  column: string[];
  value: string;
  page: number;
}

export interface TruthTable {
  id: string;
  /** Pages the table is printed on, first to last. */
  pages: number[];
  /** Header of the row-label column (first column). */
  labelHeader: string;
  rows: string[];
  cells: TruthCell[];
}

interface TruthProcedure {
  heading: string;
  pages: number[];
  steps: string[];
}

interface StructureTruth {
  tables: TruthTable[];
  procedures: TruthProcedure[];
  labelledValues: Array<{ page: number; key: string; value: string }>;
  codes: Array<{ page: number; code: string; meaning: string }>;
  figures: Array<{ page: number; caption: string; labels: string[] }>;
  pageCount: number;
}

export interface StructureManual {
  pdf: Uint8Array;
  truth: StructureTruth;
}

const DATE = new Date('2025-01-20T08:00:00.000Z');
const HEADER = { left: 'Orvik CC-4 Chamber Controller', right: 'Technical Reference' };
const FOOTER = 'Doc 7731-CC4   Rev B';

interface GridSpec {
  id: string;
  widths: number[];
  header: HeaderCell[][];
  body: string[][];
  /** Centre the values of body columns after the first (spec tables often do). */
  centre?: boolean;
  /** Header in the body's regular font (a header told apart only by its place and its words). */
  plainHeader?: boolean;
  size?: number;
}

/** Height of one grid row: the sample's table leading (1.32 em) plus 4.2 pt padding above and below. */
const gridRowHeight = (size: number = SIZE.table) => size * 1.32 + 8.4;

/**
 * Draws a ruled grid with `header` rows (cells may span columns, centred over their span) and
 * `body` rows (first column left-aligned: the row labels). Returns the y below the grid.
 */
function drawGrid(page: PDFPage, fonts: Fonts, x0: number, top: number, spec: GridSpec): number {
  const size = spec.size ?? SIZE.table;
  const rowH = gridRowHeight(size);
  const width = spec.widths.reduce((a, b) => a + b, 0);
  const xs = spec.widths.reduce<number[]>((acc, w) => [...acc, acc.at(-1)! + w], [x0]);
  let y = top;
  const text = (s: string, x: number, w: number, font: typeof fonts.regular, centre: boolean) => {
    const tw = font.widthOfTextAtSize(s, size);
    page.drawText(s, { x: centre ? x + (w - tw) / 2 : x + 5, y: y - rowH + 5.2, size, font, color: INK });
  };
  for (const row of spec.header) {
    let col = 0;
    for (const cell of row) {
      const span = cell.span ?? 1;
      const w = xs[col + span] - xs[col];
      if (cell.text) text(cell.text, xs[col], w, spec.plainHeader ? fonts.regular : fonts.bold, span > 1 || col > 0);
      col += span;
    }
    y -= rowH;
    page.drawLine({ start: { x: x0, y }, end: { x: x0 + width, y }, thickness: 0.5, color: INK });
  }
  for (const row of spec.body) {
    row.forEach((cell, i) => text(cell, xs[i], spec.widths[i], fonts.regular, !!spec.centre && i > 0));
    y -= rowH;
    page.drawLine({ start: { x: x0, y }, end: { x: x0 + width, y }, thickness: 0.3, color: INK });
  }
  page.drawRectangle({ x: x0, y, width, height: top - y, borderColor: INK, borderWidth: 0.8 });
  return y;
}

/** Header path of each column: the texts of the header cells above it (spans expanded). */
function columnPaths(header: HeaderCell[][], columns: number): string[][] {
  const paths: string[][] = Array.from({ length: columns }, () => []);
  for (const row of header) {
    let col = 0;
    for (const cell of row) {
      for (let k = 0; k < (cell.span ?? 1); k++) if (cell.text) paths[col + k].push(cell.text);
      col += cell.span ?? 1;
    }
  }
  return paths;
}

function truthOf(spec: GridSpec, pageOfRow: (i: number) => number): TruthTable {
  const paths = columnPaths(spec.header, spec.widths.length);
  const cells: TruthCell[] = [];
  spec.body.forEach((row, i) => row.slice(1).forEach((value, j) => cells.push({ row: row[0], column: paths[j + 1], value, page: pageOfRow(i) })));
  const pages = [...new Set(spec.body.map((_, i) => pageOfRow(i)))];
  return { id: spec.id, pages, labelHeader: paths[0].join(' '), rows: spec.body.map((r) => r[0]), cells };
}

// ---------------------------------------------------------------------------------------------
// Content (invented)

const RATED: GridSpec = {
  id: 'rated-outputs',
  widths: [143, 85, 85, 85, 85],
  header: [
    [{ text: 'Quantity' }, { text: 'Heater circuit', span: 2 }, { text: 'Fan circuit', span: 2 }],
    [{ text: '' }, { text: 'Min' }, { text: 'Max' }, { text: 'Min' }, { text: 'Max' }],
  ],
  body: [
    ['Voltage (V)', '180', '253', '21.6', '26.4'],
    ['Current (A)', '0.5', '12.5', '0.08', '1.6'],
    ['Frequency (Hz)', '47', '63', '–', '–'],
    ['Switching rate (1/min)', '1', '30', '2', '60'],
  ],
  centre: true,
};

const VARIANTS: GridSpec = {
  id: 'variants',
  widths: [72, 96, 80, 72, 72, 91],
  header: [[{ text: 'Variant' }, { text: 'Supply (V AC)' }, { text: 'Fuse [A]' }, { text: 'Power (W)' }, { text: 'Mass (kg)' }, { text: 'Relay outputs' }]],
  body: [
    ['CC-4 Basic', '230', 'T 6.3', '1450', '11.2', '2'],
    ['CC-4 Plus', '230', 'T 10', '2300', '12.8', '4'],
    ['CC-4 US', '120', 'T 16', '1800', '12.9', '4'],
    ['CC-4 Lab', '400', 'T 4', '3100', '15.5', '6'],
    ['CC-4 Mini', '24 DC', 'F 2.5', '60', '3.4', '1'],
  ],
};

const SUBJECTS = ['Heater', 'Fan', 'Door lock', 'Humidifier', 'Sensor T1', 'Sensor T2', 'Alarm relay', 'Logger'];
const ASPECTS: Array<[name: string, def: (i: number) => string, range: string, unit: string]> = [
  ['start delay', (i) => String(5 + i * 3), '0 … 600', 's'],
  ['upper limit', (i) => String(80 + i * 5), '-40 … 180', '°C'],
  ['lower limit', (i) => String(-20 - i), '-70 … 50', '°C'],
  ['hysteresis', (i) => (0.5 + i * 0.1).toFixed(1), '0.1 … 10.0', 'K'],
  ['offset', (i) => (i % 2 ? '0.0' : `-0.${i + 1}`), '-5.0 … 5.0', 'K'],
  ['service interval', (i) => String(500 * (i + 1)), '100 … 9999', 'h'],
];
/** Parameters, subject-major: 48 rows, more than one page holds. */
const PARAMETERS: string[][] = SUBJECTS.flatMap((s, i) => ASPECTS.map(([name, def, range, unit]) => [`${s} ${name}`, def(i), range, unit]));
const PARAM_WIDTHS = [190, 80, 120, 93];
const PARAM_HEADER: HeaderCell[][] = [[{ text: 'Parameter' }, { text: 'Default' }, { text: 'Range' }, { text: 'Unit' }]];

const FAULTS: Array<[code: string, meaning: string, remedy: string]> = [
  ['F-11', 'Heater circuit open', 'Check heater fuse and wiring'],
  ['F-12', 'Heater relay welded', 'Replace relay board'],
  ['F-21', 'Fan blocked', 'Clear the fan inlet'],
  ['F-31', 'Sensor T1 short circuit', 'Replace sensor T1'],
  ['F-32', 'Sensor T1 open circuit', 'Check sensor connector'],
  ['F-41', 'Door open too long', 'Close the door'],
  ['F-51', 'Logger memory full', 'Export and clear the log'],
];

/** Models side by side under an empty corner cell, their names holding digits, in a plain header. */
const MODELS: GridSpec = {
  id: 'models',
  widths: [150, 90, 90, 90],
  header: [[{ text: '' }, { text: 'CC4-B20S' }, { text: 'CC4-P24S' }, { text: 'CC4-L40X' }]],
  body: [
    ['Heater power', '1450 W', '2300 W', '3100 W'],
    ['Fan current', '0.4 A', '0.8 A', '1.6 A'],
    ['Sensor inputs', '2', '4', '6'],
  ],
  centre: true,
  plainHeader: true,
};

const CABLES: GridSpec = {
  id: 'cables',
  widths: [78, 82, 70],
  header: [[{ text: 'Cable' }, { text: 'Section (mm²)' }, { text: 'Length (m)' }]],
  body: [
    ['Mains', '2.5', '10'],
    ['Sensor', '0.25', '25'],
    ['Relay', '0.75', '30'],
    ['Bus', '0.34', '100'],
  ],
};

const LABELLED: Array<[key: string, value: string, leader: boolean]> = [
  ['Supply voltage', '230 V AC', false],
  ['Protection class', 'IP54', true],
  ['Ambient temperature', '5 … 40 °C', false],
  ['Standby power', '4.5 W', true],
];

const FILTER_STEPS = [
  'Switch the controller off at the mains isolator and wait until the fan stops.',
  'Loosen the two knurled screws of the filter cover.',
  'Lift the cover off the two lower hooks.',
  'Pull the old filter mat out of the frame.',
  'Clean the frame with a dry cloth.',
  'Insert a new filter mat with the printed arrow pointing to the fan.',
  'Hang the cover on the lower hooks and tighten the knurled screws.',
  'Switch the controller on and reset the filter counter in the service menu.',
];
/** Steps printed on the first page of the procedure; the rest continue on the next page. */
const STEPS_ON_FIRST_PAGE = 5;

const FIGURE_LABELS = ['DISPLAY', 'START', 'STOP', 'MENU'];
const FIGURE_CAPTION = 'Figure 1 Front panel of the controller';

/** A front panel drawn as pixels: its key names exist only in the image, for OCR. */
async function frontPanelPng(): Promise<Uint8Array> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const family = await registerFont();
  const canvas = createCanvas(1200, 520);
  const g = canvas.getContext('2d');
  g.fillStyle = '#f4f4f2';
  g.fillRect(0, 0, 1200, 520);
  g.fillStyle = '#dadde0';
  g.fillRect(40, 40, 1120, 440);
  g.fillStyle = '#20303a';
  g.fillRect(90, 90, 560, 220);
  g.fillStyle = '#111111';
  g.font = `bold 44px ${family}`;
  // Labels below their element, as callouts are printed on panels.
  g.fillText(FIGURE_LABELS[0], 280, 380);
  g.font = `bold 34px ${family}`;
  FIGURE_LABELS.slice(1).forEach((label, i) => {
    const x = 720 + i * 150;
    g.fillStyle = '#6a7680';
    g.fillRect(x, 150, 110, 110);
    g.fillStyle = '#111111';
    g.fillText(label, x - 6, 330);
  });
  return new Uint8Array(canvas.toBuffer('image/png'));
}

/** The structure test manual: 6 pages, deterministic bytes. */
export async function generateStructureManual(): Promise<StructureManual> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle('Orvik CC-4 Chamber Controller – Technical Reference');
  doc.setCreationDate(DATE);
  doc.setModificationDate(DATE);
  const fonts = await embedFonts(doc);
  const pageCount = 6;
  const pages = Array.from({ length: pageCount }, () => doc.addPage([PAGE.width, PAGE.height]));
  pages.forEach((p, i) => drawPageFrame(p, fonts, i + 1, pageCount, HEADER, FOOTER));
  const tables: TruthTable[] = [];

  // Page 1: a two-level header with spanning groups, units in the row labels; a variant table with units in its headers.
  let w = new PageWriter(pages[0], fonts);
  w.h1('1 Electrical data');
  w.paragraph('The controller switches the heater and fan circuits within the limits below. Values apply at an ambient temperature of 25 °C.');
  w.y = drawGrid(pages[0], fonts, MARGIN.left, w.y - 4, RATED) - 16;
  tables.push(truthOf(RATED, () => 1));
  w.paragraph('Each variant is protected by its own mains fuse. Use only the fuse type given for the variant.');
  w.y = drawGrid(pages[0], fonts, MARGIN.left, w.y - 4, VARIANTS) - 16;
  tables.push(truthOf(VARIANTS, () => 1));

  // Pages 2–3: a long parameter table, continued on the next page under a repeated header.
  w = new PageWriter(pages[1], fonts);
  w.h1('2 Parameter list');
  w.paragraph('All parameters can be changed in the service menu. The defaults apply after a reset.');
  // As many rows as fit above the bottom margin; the rest continue on the next page.
  const onFirst = Math.floor((w.y - 4 - MARGIN.bottom) / gridRowHeight()) - PARAM_HEADER.length;
  const first = { id: 'parameters', widths: PARAM_WIDTHS, header: PARAM_HEADER, body: PARAMETERS.slice(0, onFirst) };
  drawGrid(pages[1], fonts, MARGIN.left, w.y - 4, first);
  w = new PageWriter(pages[2], fonts);
  w.text(MARGIN.left, w.y - 10, 'Parameter list (continued)', 9, fonts.bold);
  w.y -= 16;
  w.y = drawGrid(pages[2], fonts, MARGIN.left, w.y, { ...first, body: PARAMETERS.slice(onFirst) }) - 16;
  tables.push(truthOf({ ...first, body: PARAMETERS }, (i) => (i < onFirst ? 2 : 3)));

  // Page 3: a fault-code list (a code and its meaning).
  w.h1('3 Fault codes');
  const faults: GridSpec = {
    id: 'faults',
    widths: [60, 190, 233],
    header: [[{ text: 'Code' }, { text: 'Meaning' }, { text: 'Remedy' }]],
    body: FAULTS.map((f) => [...f]),
  };
  w.y = drawGrid(pages[2], fonts, MARGIN.left, w.y - 4, faults) - 16;
  tables.push(truthOf(faults, () => 3));

  // Page 4: full-width heading, then two columns: prose and a narrow table left, prose and labelled values right.
  w = new PageWriter(pages[3], fonts);
  w.h1('4 Installation');
  const colW = (CONTENT_WIDTH - 23) / 2;
  const rightX = MARGIN.left + colW + 23;
  const prose = (x: number, y: number, text: string): number => {
    const words = text.split(' ');
    let line = '';
    for (const word of words) {
      const next = line ? `${line} ${word}` : word;
      if (fonts.regular.widthOfTextAtSize(next, SIZE.body) > colW) {
        pages[3].drawText(line, { x, y, size: SIZE.body, font: fonts.regular, color: INK });
        y -= SIZE.body * 1.38;
        line = word;
      } else line = next;
    }
    pages[3].drawText(line, { x, y, size: SIZE.body, font: fonts.regular, color: INK });
    return y - SIZE.body * 1.38 - 6;
  };
  const topY = w.y - 10;
  let ly = prose(
    MARGIN.left,
    topY,
    'Mount the controller on a vertical wall away from heat sources. Keep at least 100 mm of free space around the housing so that the fan can draw in cool air and the service cover can be opened.',
  );
  ly = prose(MARGIN.left, ly, 'Route mains and signal cables in separate ducts. Use cables with the sections and lengths below.');
  drawGrid(pages[3], fonts, MARGIN.left, ly, CABLES);
  tables.push(truthOf(CABLES, () => 4));
  let ry = prose(
    rightX,
    topY,
    'The controller leaves the factory configured for the supply of its variant. Check the rating plate before the first start and compare it with the data below and with the local supply.',
  );
  for (const [key, value, leader] of LABELLED) {
    if (leader) {
      const kw = fonts.regular.widthOfTextAtSize(key, SIZE.body);
      const vw = fonts.regular.widthOfTextAtSize(value, SIZE.body);
      const dots = '.'.repeat(Math.floor((colW - kw - vw - 8) / fonts.regular.widthOfTextAtSize('.', SIZE.body)));
      pages[3].drawText(`${key} ${dots}`, { x: rightX, y: ry, size: SIZE.body, font: fonts.regular, color: INK });
      pages[3].drawText(value, { x: rightX + colW - vw, y: ry, size: SIZE.body, font: fonts.regular, color: INK });
    } else pages[3].drawText(`${key}: ${value}`, { x: rightX, y: ry, size: SIZE.body, font: fonts.regular, color: INK });
    ry -= SIZE.body * 1.38 + 4;
  }
  prose(rightX, ry - 6, 'Connect the protective earth before any other conductor and check its continuity after installation.');

  // Page 5: a raster figure with its caption, then a procedure that runs onto page 6.
  w = new PageWriter(pages[4], fonts);
  w.h1('5 Maintenance');
  w.paragraph('The front panel carries the display and the three operating keys.');
  const png = await doc.embedPng(await frontPanelPng());
  const figW = CONTENT_WIDTH;
  const figH = (figW * 520) / 1200;
  pages[4].drawImage(png, { x: MARGIN.left, y: w.y - figH, width: figW, height: figH });
  w.y -= figH + 6;
  w.paragraph(FIGURE_CAPTION, { size: 9, font: fonts.italic });
  // Push the procedure down so that its first steps end at the foot of the page and the rest
  // continue overleaf: heading (~28 pt) plus each step's wrapped lines (13.8 pt) and 4 pt gap.
  const stepsHeight = FILTER_STEPS.slice(0, STEPS_ON_FIRST_PAGE).reduce(
    (h, s) => h + 4 + 13.8 * Math.ceil(fonts.regular.widthOfTextAtSize(s, SIZE.body) / (CONTENT_WIDTH - 20)),
    0,
  );
  w.space(Math.max(0, w.y - MARGIN.bottom - 28 - stepsHeight - 12));
  w.h2('5.1 Replacing the air filter');
  w.steps(FILTER_STEPS.slice(0, STEPS_ON_FIRST_PAGE));
  w = new PageWriter(pages[5], fonts);
  w.steps(FILTER_STEPS.slice(STEPS_ON_FIRST_PAGE), STEPS_ON_FIRST_PAGE + 1);
  w.paragraph('The filter counter starts again from zero after the reset. Replace the filter mat at least once a year.');
  w.h2('5.2 Cleaning');
  w.paragraph('Wipe the housing with a damp cloth. Do not use solvents.');
  w.h2('5.3 Model overview');
  w.y = drawGrid(pages[5], fonts, MARGIN.left, w.y - 4, MODELS) - 16;
  tables.push(truthOf(MODELS, () => 6));

  const pdf = await doc.save({ useObjectStreams: false });
  return {
    pdf,
    truth: {
      pageCount,
      tables,
      procedures: [{ heading: '5.1 Replacing the air filter', pages: [5, 6], steps: FILTER_STEPS }],
      labelledValues: LABELLED.map(([key, value]) => ({ page: 4, key, value })),
      codes: FAULTS.map(([code, meaning]) => ({ page: 3, code, meaning })),
      figures: [{ page: 5, caption: FIGURE_CAPTION, labels: FIGURE_LABELS }],
    },
  };
}

/**
 * A scanned copy: each page an image of the given size (points) and nothing else, so every word
 * has to come back through OCR. The images are the caller's renders of the original pages.
 */
export async function imageOnlyCopy(pages: Array<{ png: Uint8Array; width: number; height: number }>): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setCreationDate(DATE);
  doc.setModificationDate(DATE);
  for (const p of pages) {
    const page = doc.addPage([p.width, p.height]);
    const img = await doc.embedPng(p.png);
    page.drawImage(img, { x: 0, y: 0, width: p.width, height: p.height });
  }
  return doc.save({ useObjectStreams: false });
}
