import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { titleFromPages, usableTitle } from './manual-title';

const line = (text: string, fontSize: number, extra: { running?: boolean; ocr?: boolean } = {}) => ({
  text,
  fontSize,
  bbox: { x: 0, y: 0, w: 100, h: fontSize },
  bold: false,
  cells: [],
  ocr: false,
  column: 0,
  ...extra,
});

describe('manual titles', () => {
  it('treats producer boilerplate, placeholders and file names as junk, by general rules', () => {
    for (const junk of [
      'CPY Document Title',
      'Document Title',
      'Untitled',
      'untitled-3',
      'Microsoft Word - x.doc',
      'Microsoft PowerPoint - slides',
      'ServiceTekNotes_46_Feb_1987.pdf',
      '20250417-F405_V4_Stack_Manual_EN',
      'manual_v2',
      'User Manual',
      '12345',
      '',
    ]) {
      expect(usableTitle(junk, 'whatever.pdf'), junk).toBeUndefined();
    }
    expect(usableTitle('DP800 Series User’s Guide')).toBe('DP800 Series User’s Guide');
    expect(usableTitle('DP800')).toBe('DP800');
    expect(usableTitle('OpenHantek6022 User Manual', 'openhantek6022-user-manual.pdf')).toBe('OpenHantek6022 User Manual');
  });

  it('takes the largest text of the first pages, skipping page furniture and generic covers', () => {
    const cover = {
      lines: [
        line('www.example.com', 9, { running: true }),
        line('User Manual', 28),
        line('Heathkit', 18),
        line('Model IG-102', 18),
        line('Copyright 1957', 9),
      ],
    };
    expect(titleFromPages([cover])).toBe('User Manual Heathkit Model IG-102');
    expect(titleFromPages([{ lines: [line('DP800 Series', 24), line('Programmable DC Power Supply', 24), line('Introduction text here.', 10)] }])).toBe(
      'DP800 Series Programmable DC Power Supply',
    );
    // A blank or contents-only first page: the second page names it.
    expect(titleFromPages([{ lines: [line('Table of contents', 20)] }, { lines: [line('Signal Generator IG-102', 22), line('body', 10)] }])).toBe(
      'Signal Generator IG-102',
    );
    expect(titleFromPages([{ lines: [line('3', 30), line('© 2020', 8)] }])).toBeUndefined();
  });

  it('prefers the text a cover states to text read from its pictures, and reads scanned covers', () => {
    // A stylised logo read by OCR ("OUMEX" for OLIMEX) is larger than the stated title.
    const cover = { lines: [line('OUMEX', 40, { ocr: true }), line('ESP32-POE', 26), line('User Manual', 26), line('Revision 2.6', 10)] };
    expect(titleFromPages([cover])).toBe('ESP32-POE User Manual');
    const scanned = {
      lines: [line('HEATHKIT', 30, { ocr: true }), line('Audio Generator AG-9A', 22, { ocr: true }), line('ASSEMBLY MANUAL', 14, { ocr: true })],
    };
    expect(titleFromPages([scanned])).toBe('HEATHKIT Audio Generator AG-9A');
  });

  it.skipIf(!fs.existsSync('../shared/manuals/librevna-user-manual.pdf'))('finds the cover title of real manuals without PDF titles', async () => {
    const { openPdf } = await import('./pdf');
    const want: Record<string, string> = {
      'librevna-user-manual.pdf': 'LibreVNA User Manual',
      'mks-dlc32-v2-wiring-manual.pdf': 'MKS DLC32 V2 Wiring Manual',
    };
    for (const [file, title] of Object.entries(want)) {
      const doc = await openPdf(new Uint8Array(fs.readFileSync(`../shared/manuals/${file}`)), { maxBytes: Infinity });
      expect(usableTitle(doc.info.title, file)).toBeUndefined();
      expect(titleFromPages([await doc.extractPage(1), await doc.extractPage(2)])).toBe(title);
      await doc.close();
    }
  });
});

describe('a cover with a big model name', () => {
  it('joins the model name and the product line under it', () => {
    const cover = {
      lines: [
        line('ACME INDUSTRIAL CONTROLS', 15),
        line('HX-200', 54),
        line('Hydraulic Press Controller', 24),
        line('Installation, Operation and Service Manual', 14),
      ],
    };
    expect(titleFromPages([cover])).toBe('HX-200 Hydraulic Press Controller');
  });
});
