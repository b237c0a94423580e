/**
 * Bidirectional-text controls (U+202A–U+202E embeddings/overrides, U+2066–U+2069 isolates,
 * U+200E/U+200F/U+061C marks) let a name display differently from what it is — `invoice‮fdp.exe`
 * shows as `invoiceexe.pdf`. Names never need them, so they are removed.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

export function stripBidiControls(s: string): string {
  return s.replace(BIDI_CONTROLS, '');
}
