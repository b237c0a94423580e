import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { findImageRegions, mergeRegions } from './images';

// Viewport of an unrotated 600 × 800 pt page at scale 1: flips y so the origin is top-left.
const VIEWPORT = [1, 0, 0, -1, 0, 800];
const page = { width: 600, height: 800 };
const list = (...ops: Array<[number, unknown[]]>) => ({ fnArray: ops.map((o) => o[0]), argsArray: ops.map((o) => o[1]) });

describe('findImageRegions', () => {
  it('maps the unit square through the current transform to top-left page coordinates', () => {
    const regions = findImageRegions(
      OPS,
      list([OPS.save, []], [OPS.transform, [200, 0, 0, 100, 50, 600]], [OPS.paintImageXObject, ['img1', 1000, 500]], [OPS.restore, []]),
      VIEWPORT,
      page,
    );
    expect(regions).toEqual([{ bbox: { x: 50, y: 100, w: 200, h: 100 }, pixelWidth: 1000, pixelHeight: 500 }]);
  });

  it('restores the transform after restore and applies form XObject matrices', () => {
    const regions = findImageRegions(
      OPS,
      list(
        [OPS.save, []],
        [OPS.transform, [2, 0, 0, 2, 0, 0]],
        [OPS.restore, []],
        [
          OPS.paintFormXObjectBegin,
          [
            [1, 0, 0, 1, 100, 100],
            [0, 0, 300, 300],
          ],
        ],
        [OPS.transform, [100, 0, 0, 50, 0, 0]],
        [OPS.paintInlineImageXObject, [{ width: 64, height: 32 }]],
        [OPS.paintFormXObjectEnd, []],
        [OPS.transform, [80, 0, 0, 80, 400, 400]],
        [OPS.paintImageMaskXObject, [{ width: 10, height: 10 }]],
      ),
      VIEWPORT,
      page,
    );
    expect(regions.map((r) => r.bbox)).toEqual([
      { x: 400, y: 320, w: 80, h: 80 },
      { x: 100, y: 650, w: 100, h: 50 },
    ]);
  });

  it('drops icons and bullets and clips to the page', () => {
    const regions = findImageRegions(
      OPS,
      list(
        [OPS.save, []],
        [OPS.transform, [12, 0, 0, 12, 50, 50]],
        [OPS.paintImageXObject, ['icon', 24, 24]],
        [OPS.restore, []],
        [OPS.transform, [400, 0, 0, 300, 400, -100]],
        [OPS.paintImageXObject, ['big', 800, 600]],
      ),
      VIEWPORT,
      page,
    );
    // PDF y −100…200 is top-left y 600…900, clipped to the page bottom at 800.
    expect(regions.map((r) => r.bbox)).toEqual([{ x: 400, y: 600, w: 200, h: 200 }]);
  });
});

describe('mergeRegions', () => {
  it('joins strips of a sliced scan into one region', () => {
    const strips = [0, 1, 2, 3].map((i) => ({ bbox: { x: 0, y: i * 200, w: 600, h: 200 }, pixelWidth: 2500, pixelHeight: 833 }));
    expect(mergeRegions(strips)).toEqual([{ bbox: { x: 0, y: 0, w: 600, h: 800 }, pixelWidth: 2500, pixelHeight: 833 }]);
  });

  it('keeps separate figures apart', () => {
    const a = { bbox: { x: 0, y: 0, w: 100, h: 100 }, pixelWidth: 0, pixelHeight: 0 };
    const b = { bbox: { x: 0, y: 200, w: 100, h: 100 }, pixelWidth: 0, pixelHeight: 0 };
    expect(mergeRegions([b, a])).toEqual([a, b]);
  });
});
