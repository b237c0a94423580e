/**
 * The caps hold where pdf.js decodes, whatever the filter chain or encryption. Each
 * hostile file decodes past a small test cap through a different chain; the guarded job fails
 * with the decompression-bomb reason. Below the cap the same chains decode (so the refusals are
 * the cap's doing, not a decoder that gave up).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aesBombPdf, type ChainBomb, chainBombPdf } from '../pdf-worker/testing/hostile-pdfs';
import { decodeGuardInstalled, runGuarded, setDecodeCapsForTests } from './decode-guard';
import { isIngestError } from './errors';
import { openPdf } from './pdf';

const MB = 1024 * 1024;
const CHAINS: ChainBomb[] = ['double-flate', 'nested-decodeparms', 'ascii85-flate', 'asciihex-flate', 'lzw-flate', 'runlength-flate'];

/** Opens and parses page 1 as one guarded job: the error, or null when it went through. */
function parse(bytes: Uint8Array) {
  return runGuarded(async () => {
    const doc = await openPdf(bytes, { maxBytes: Infinity });
    try {
      await doc.extractPage(1);
      return null;
    } finally {
      await doc.close();
    }
  }).catch((err: unknown) => err);
}

beforeAll(() => setDecodeCapsForTests({ stream: 2 * MB, image: 8 * MB }));
afterAll(() => setDecodeCapsForTests());

describe('decode-time bomb caps', () => {
  it.each(CHAINS)('%s: refused past the cap, parsed below it', async (kind) => {
    const err = await parse(await chainBombPdf(kind, 5));
    expect(isIngestError(err, 'corrupt'), String(err)).toBe(true);
    expect((err as Error).message).toMatch(/decompression bomb/);
    expect((err as { detail?: string }).detail).toMatch(/content, font or object stream decodes past 2 MB/);
    expect(decodeGuardInstalled()).toBe(true);
    await expect(parse(await chainBombPdf(kind, 1))).resolves.toBeNull();
  });

  it('AES-128 with an empty user password: measured after decryption', async () => {
    const err = await parse(await aesBombPdf(5));
    expect(isIngestError(err, 'corrupt'), String(err)).toBe(true);
    expect((err as Error).message).toMatch(/decompression bomb/);
    await expect(parse(await aesBombPdf(1))).resolves.toBeNull();
  });
});
