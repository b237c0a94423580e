/**
 * Mean confidence of recognised words (0 when there are none): a line's or a whole result's, the
 * same for every OCR engine. Its own module so the engines share it without the server, which
 * describes the native engine, loading tesseract.js.
 */
export function meanConfidence(words: readonly { confidence: number }[]): number {
  return words.length ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0;
}
