/**
 * A generated manual of any length (default 2,000 pages) for the ingest-at-scale benchmark and
 * tests: varied prose, ruled tables, a vector wiring diagram every `figureEvery` pages, a raster
 * photo every `photoEvery`, and a scanned page (text only as pixels) every `scannedEvery`. Text is
 * drawn from a seeded generator so every page differs (no cache hides the work) and the file is
 * the same on every run. Never committed: generate it (`npm run sample -- --large 2000`).
 */
import { PDFDocument, type PDFImage } from 'pdf-lib';
import { drawWiringDiagram } from './diagram';
import { prng } from './prng';
import { CONTENT_WIDTH, embedFonts, MARGIN, PAGE, PageWriter, drawPageFrame } from './layout';
import { registerFont, renderRatingPlatePng } from './raster';

export interface LargeManualOptions {
  pages?: number;
  scannedEvery?: number;
  figureEvery?: number;
  photoEvery?: number;
  seed?: number;
}

const NOUNS = [
  'pump',
  'valve',
  'relay',
  'encoder',
  'spindle',
  'controller',
  'sensor',
  'actuator',
  'bearing',
  'manifold',
  'contactor',
  'filter',
  'solenoid',
  'gearbox',
  'coupling',
  'inverter',
  'thermistor',
  'harness',
  'fuse',
  'terminal',
];
const VERBS = ['check', 'replace', 'tighten', 'calibrate', 'inspect', 'clean', 'lubricate', 'measure', 'adjust', 'reset', 'verify', 'disconnect'];
const ADJ = ['primary', 'auxiliary', 'upper', 'lower', 'left', 'right', 'hydraulic', 'pneumatic', 'thermal', 'redundant', 'main', 'backup'];
const UNITS = ['V', 'A', 'bar', 'Nm', 'mm', 'rpm', '°C', 'ms', 'kPa', 'Hz'];

export async function generateLargeManual(opts: LargeManualOptions = {}): Promise<Uint8Array> {
  const total = opts.pages ?? 2000;
  const scannedEvery = opts.scannedEvery ?? 40;
  const figureEvery = opts.figureEvery ?? 10;
  const photoEvery = opts.photoEvery ?? 25;
  const r = prng(opts.seed ?? 2000);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const num = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const sentence = () => {
    const s = `${pick(VERBS)} the ${pick(ADJ)} ${pick(NOUNS)} ${num(1, 99)} before the ${pick(NOUNS)}; the limit is ${num(2, 950)} ${pick(UNITS)} at ${pick(ADJ)} load`;
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  };
  const paragraph = (n: number) => Array.from({ length: n }, sentence).join(' ');

  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`Generated ${total}-page service manual`);
  const fonts = await embedFonts(doc);
  const photo = await doc.embedPng(await renderRatingPlatePng());
  const header = { left: 'GENERATED SERVICE MANUAL', right: 'Large-manual benchmark' };

  for (let n = 1; n <= total; n++) {
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const chapter = Math.ceil(n / 20);
    if (n % scannedEvery === 0) {
      page.drawImage(await scannedPage(doc, [`${chapter}.${n} Scanned service note ${n}`, ...Array.from({ length: 18 }, sentence)]), {
        x: 0,
        y: 0,
        width: PAGE.width,
        height: PAGE.height,
      });
      continue;
    }
    drawPageFrame(page, fonts, n, total, header, 'Generated for benchmarks');
    const w = new PageWriter(page, fonts);
    // PageWriter throws before drawing what would not fit: the page then simply ends there.
    const fit = (draw: () => void) => {
      try {
        draw();
      } catch (err) {
        if (!(err instanceof Error && /layout overflow/.test(err.message))) throw err;
      }
    };
    if (n % 20 === 1) w.h1(`Chapter ${chapter}: ${pick(ADJ)} ${pick(NOUNS)} system`);
    w.h2(`${chapter}.${n} ${pick(VERBS)} the ${pick(ADJ)} ${pick(NOUNS)}`);
    if (n % figureEvery === 0) {
      w.paragraph(paragraph(2));
      const bottom = drawWiringDiagram(page, fonts, w.y - 10);
      w.y = bottom - 10;
    } else if (n % photoEvery === 0) {
      w.paragraph(paragraph(3));
      drawPhoto(page, photo, w.y - 10);
    } else {
      fit(() => w.paragraph(paragraph(num(4, 7)), { after: 6 }));
      if (n % 3 === 0) {
        const rows = Array.from({ length: num(5, 9) }, () => [`E${num(100, 999)}`, `${pick(ADJ)} ${pick(NOUNS)} fault`, sentence()]);
        fit(() =>
          w.table([{ header: 'Code', width: 60, mono: true }, { header: 'Meaning', width: 150 }, { header: 'Action' }], rows, {
            caption: `Table ${chapter}-${n}: fault codes`,
          }),
        );
      } else {
        fit(() => w.paragraph(paragraph(num(4, 6)), { after: 6 }));
      }
      fit(() => w.bullets(Array.from({ length: 3 }, sentence)));
    }
  }
  return doc.save({ useObjectStreams: false });
}

function drawPhoto(page: ReturnType<PDFDocument['addPage']>, photo: PDFImage, top: number) {
  const width = CONTENT_WIDTH;
  const height = (width * photo.height) / photo.width;
  page.drawImage(photo, { x: MARGIN.left, y: Math.max(MARGIN.bottom, top - height), width, height });
}

/** A page of text that exists only as pixels (150 dpi grey JPEG, slightly rotated like a scan). */
async function scannedPage(doc: PDFDocument, lines: string[]): Promise<PDFImage> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const family = await registerFont();
  const scale = 150 / 72;
  const canvas = createCanvas(Math.round(PAGE.width * scale), Math.round(PAGE.height * scale));
  const g = canvas.getContext('2d');
  g.fillStyle = '#f4f2ec';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.rotate(0.004);
  g.fillStyle = '#222';
  let y = 150;
  lines.forEach((line, i) => {
    g.font = i === 0 ? `bold 34px ${family}` : `24px ${family}`;
    // Wrap at the margin.
    let current = '';
    for (const word of line.split(' ')) {
      const next = current ? `${current} ${word}` : word;
      if (g.measureText(next).width > canvas.width - 240 && current) {
        g.fillText(current, 120, y);
        y += 34;
        current = word;
      } else current = next;
    }
    g.fillText(current, 120, y);
    y += i === 0 ? 56 : 40;
  });
  return doc.embedJpg(await canvas.encode('jpeg', 80));
}
