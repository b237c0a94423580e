import { describe, expect, it } from 'vitest';
import { usableTitle } from '../ingest/manual-title';
import { safeFileName, titleFromFileName } from '../ingest/upload';

describe('manual titles and names from untrusted input', () => {
  it('uses a PDF title that names the document, and ignores tool artefacts', () => {
    expect(usableTitle('DS-012 Pixhawk Autopilot v6X Standard')).toBe('DS-012 Pixhawk Autopilot v6X Standard');
    expect(usableTitle('  OpenHantek6022\n User Manual ')).toBe('OpenHantek6022 User Manual');
    expect(usableTitle('ServiceTekNotes_46_Feb_1987.pdf')).toBeUndefined();
    expect(usableTitle('Microsoft Word - manual_v2.docx')).toBeUndefined();
    expect(usableTitle('Untitled')).toBeUndefined();
    expect(usableTitle('abc')).toBeUndefined();
    expect(usableTitle(undefined)).toBeUndefined();
  });

  it('strips paths, control characters and extensions from file names', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\x\\manual.pdf')).toBe('manual.pdf');
    expect(safeFileName('a\u0000b\u001f.pdf')).toBe('ab.pdf');
    expect(safeFileName('x'.repeat(300) + '.pdf')).toHaveLength(200);
    expect(safeFileName('')).toBe('upload.pdf');
    expect(titleFromFileName('BTT_SKR_mini_E3.pdf')).toBe('BTT SKR mini E3');
    expect(titleFromFileName('.pdf')).toBe('Untitled manual');
    // Kept verbatim as text: React escapes it on render, and it never reaches a path.
    expect(titleFromFileName('<img src=x onerror=alert(1)>.pdf')).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('bidi controls in names', () => {
  it('are stripped from file names and PDF titles', async () => {
    const { stripInvisibleControls } = await import('../text/hygiene');
    expect(stripInvisibleControls('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(stripInvisibleControls('a\u2066b\u2069c\u200Fd\u061Ce')).toBe('abcde');
    expect(usableTitle('Pump \u202Emanual\u202C service guide')).toBe('Pump manual service guide');
  });
});
