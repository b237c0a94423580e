import fs from 'node:fs';
import { loadPdfjs, pdfjsAssets } from '@/lib/ingest/pdfjs';
import { generateSampleManual } from '@/lib/sample';
async function main() {
  const pdfjs = await loadPdfjs();
  const s = await generateSampleManual();
  const f = process.argv[2];
  const data = f ? new Uint8Array(fs.readFileSync(f)) : s.pdf;
  const doc = await pdfjs.getDocument({ data, ...pdfjsAssets(), isEvalSupported: false, verbosity: 0 }).promise;
  const p = await doc.getPage(3);
  let t = performance.now();
  const tc = await p.getTextContent();
  console.log('text ms', performance.now() - t); t = performance.now();
  const ops = await p.getOperatorList();
  console.log('ops ms', performance.now() - t, ops.fnArray.length);
  const fonts = new Set<string>();
  let shown = 0;
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] === pdfjs.OPS.setFont) fonts.add(ops.argsArray[i][0]);
    if (ops.fnArray[i] === pdfjs.OPS.showText && shown++ < 2) console.log(JSON.stringify(ops.argsArray[i][0].slice(0, 4)));
  }
  console.log('fonts', [...fonts], 'item fonts', [...new Set(tc.items.map((i: any) => i.fontName))]);
  console.log(tc.items.slice(0,3));
}
main();
