/**
 * The one piece of the sample manual that exists only as pixels: a "photo" of the rating plate
 * and the service label inside the cover. Its fuse rating, spare-part number and service PIN are
 * never written to the PDF text layer, so questions about them need OCR or a vision model.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const PLATE_PX = { width: 1500, height: 760 } as const;

const FAMILY = 'HX Sample Sans';
let fontFamily: string | undefined;

/**
 * Liberation Sans ships inside pdfjs-dist (already a dependency), so the PNG, and with it the PDF
 * hash, does not depend on which fonts the host happens to have installed.
 */
function standardFontsDir(): string | undefined {
  const candidates = [path.join(/*turbopackIgnore: true*/ process.cwd(), 'node_modules', 'pdfjs-dist', 'standard_fonts')];
  try {
    const pkg = createRequire(import.meta.url).resolve('pdfjs-dist/package.json');
    candidates.push(path.join(path.dirname(pkg), 'standard_fonts'));
  } catch {
    // Bundled or unusual layouts: the cwd candidate (or the host fallback below) still works.
  }
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'LiberationSans-Regular.ttf')));
}

export async function registerFont(): Promise<string> {
  if (fontFamily) return fontFamily;
  const { GlobalFonts } = await import('@napi-rs/canvas');
  const dir = standardFontsDir();
  const registered =
    dir !== undefined &&
    GlobalFonts.registerFromPath(path.join(dir, 'LiberationSans-Regular.ttf'), FAMILY) !== null &&
    GlobalFonts.registerFromPath(path.join(dir, 'LiberationSans-Bold.ttf'), FAMILY) !== null;
  if (registered) {
    fontFamily = `"${FAMILY}"`;
  } else {
    fontFamily = 'sans-serif'; // still legible, only the bytes may differ between hosts
  }
  return fontFamily;
}

/** PNG of the rating plate (left) and yellow service label (right) on the enclosure wall. */
export async function renderRatingPlatePng(): Promise<Uint8Array> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const family = await registerFont();
  const { width, height } = PLATE_PX;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  const font = (px: number, bold = false) => `${bold ? 'bold ' : ''}${px}px ${family}`;

  // Enclosure wall, powder-coated light grey (RAL 7035, as in the specifications), lit from the
  // top left. A light wall also lets page-level OCR segment the labels instead of one dark block.
  const wall = g.createLinearGradient(0, 0, width, height);
  wall.addColorStop(0, '#d7dbd8');
  wall.addColorStop(1, '#b4b9b6');
  g.fillStyle = wall;
  g.fillRect(0, 0, width, height);

  // --- Rating plate: brushed aluminium, riveted ---------------------------------------------
  const px = 40;
  const py = 50;
  const pw = 820;
  const ph = 660;
  shadowedPanel(g, { x: px, y: py, w: pw, h: ph, r: 18 }, '#c9ced4', { color: 'rgba(0,0,0,0.55)', blur: 18, dx: 8, dy: 10 });
  const metal = g.createLinearGradient(px, py, px + pw, py + ph);
  metal.addColorStop(0, '#e4e7ea');
  metal.addColorStop(0.45, '#c3c8ce');
  metal.addColorStop(1, '#d9dde1');
  g.fillStyle = metal;
  roundRect(g, px, py, pw, ph, 18);
  g.fill();
  // Brushing: fine horizontal streaks at fixed offsets (deterministic, no Math.random).
  g.strokeStyle = 'rgba(255,255,255,0.18)';
  g.lineWidth = 1;
  for (let y = py + 6; y < py + ph - 6; y += 5) {
    g.beginPath();
    g.moveTo(px + 12, y + 0.5);
    g.lineTo(px + pw - 12, y + 0.5);
    g.stroke();
  }
  for (const [rx, ry] of [
    [px + 28, py + 28],
    [px + pw - 28, py + 28],
    [px + 28, py + ph - 28],
    [px + pw - 28, py + ph - 28],
  ]) {
    const rivet = g.createRadialGradient(rx - 4, ry - 4, 1, rx, ry, 12);
    rivet.addColorStop(0, '#ffffff');
    rivet.addColorStop(1, '#7d848c');
    g.fillStyle = rivet;
    g.beginPath();
    g.arc(rx, ry, 11, 0, Math.PI * 2);
    g.fill();
  }
  // Maker band.
  g.fillStyle = '#0d4585';
  g.fillRect(px + 60, py + 48, pw - 120, 78);
  g.fillStyle = '#ffffff';
  g.font = font(44, true);
  g.fillText('ACME INDUSTRIAL CONTROLS', px + 86, py + 104);

  const rows: Array<[string, string]> = [
    ['Type', 'HX-200'],
    ['Product', 'Hydraulic press controller'],
    ['Order code', 'HX200-24D'],
    ['Serial no.', 'HX2-2311-0583'],
    ['Supply', '24 V DC  3.5 A'],
    ['Protection', 'IP65     Tamb 0...+50 °C'],
    ['Internal fuse F1', 'T6.3A  250 V  5 x 20 mm'],
    ['Firmware', '2.4        Year 2023'],
  ];
  let y = py + 180;
  for (const [label, value] of rows) {
    g.fillStyle = '#39404a';
    g.font = font(28);
    g.fillText(label, px + 70, y);
    g.fillStyle = '#111418';
    fitText(g, value, px + 330, y, pw - 400, 34, (s) => font(s, true));
    g.strokeStyle = 'rgba(40,45,52,0.35)';
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(px + 70, y + 16);
    g.lineTo(px + pw - 70, y + 16);
    g.stroke();
    y += 56;
  }
  g.fillStyle = '#111418';
  g.font = font(64, true);
  g.fillText('CE', px + pw - 200, py + ph - 24);
  g.font = font(24);
  g.fillText('Made in Germany', px + 70, py + ph - 34);

  // --- Service label: yellow-bordered vinyl sticker --------------------------------------------------
  const sx = 920;
  const sy = 90;
  const sw = 540;
  const sh = 590;
  shadowedPanel(g, { x: sx, y: sy, w: sw, h: sh, r: 10 }, '#f6c915', { color: 'rgba(0,0,0,0.5)', blur: 12, dx: 6, dy: 8 });
  // Cream writing panel inside the yellow border: black on saturated yellow binarises to a solid
  // block in page-level OCR (global threshold), so the data sits on a light panel.
  g.fillStyle = '#fffbea';
  g.fillRect(sx + 22, sy + 22, sw - 44, sh - 44);
  g.fillStyle = '#121212';
  g.fillRect(sx + 22, sy + 22, sw - 44, 72);
  g.fillStyle = '#f6c915';
  g.font = font(38, true);
  g.fillText('SERVICE INFORMATION', sx + 44, sy + 72);
  g.fillStyle = '#121212';
  g.font = font(24);
  g.fillText('Authorised service staff only', sx + 40, sy + 130);
  const lines: Array<[string, string]> = [
    ['Service menu PIN', '4071'],
    ['Menu access', 'MENU+ENTER 3 s'],
    ['Fuse F1', 'T6.3A 250 V'],
    ['Spare fuse', 'AC-FU-0630'],
    ['Battery BT1', 'CR2032'],
    ['Fan filter mat', 'AC-FM-120'],
  ];
  y = sy + 200;
  for (const [label, value] of lines) {
    g.font = font(26);
    g.fillText(label, sx + 40, y);
    fitText(g, value, sx + 270, y, sw - 300, 30, (s) => font(s, true));
    y += 62;
  }
  g.strokeStyle = '#121212';
  g.lineWidth = 3;
  g.strokeRect(sx + 22, sy + 22, sw - 44, sh - 44);

  return new Uint8Array(await canvas.encode('png'));
}

type Ctx = ReturnType<ReturnType<typeof import('@napi-rs/canvas').createCanvas>['getContext']>;

/** Draws text at the largest size up to `max` px that fits `maxWidth`, like a label printer would. */
function fitText(g: Ctx, text: string, x: number, y: number, maxWidth: number, max: number, font: (px: number) => string): void {
  let px = max;
  g.font = font(px);
  while (px > 12 && g.measureText(text).width > maxWidth) g.font = font(--px);
  g.fillText(text, x, y);
}

/** Fills a rounded panel (a plate, a sticker) that casts a drop shadow on the wall behind it. */
function shadowedPanel(
  g: Ctx,
  box: { x: number; y: number; w: number; h: number; r: number },
  fill: string,
  shadow: { color: string; blur: number; dx: number; dy: number },
): void {
  g.save();
  g.shadowColor = shadow.color;
  g.shadowBlur = shadow.blur;
  g.shadowOffsetX = shadow.dx;
  g.shadowOffsetY = shadow.dy;
  g.fillStyle = fill;
  roundRect(g, box.x, box.y, box.w, box.h, box.r);
  g.fill();
  g.restore();
}

function roundRect(g: Ctx, x: number, y: number, w: number, h: number, r: number): void {
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + h, r);
  g.arcTo(x + w, y + h, x, y + h, r);
  g.arcTo(x, y + h, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}
