/**
 * Repairs text-layer words whose ToUnicode map a PDF producer wrote with its bytes swapped: each
 * Latin letter U+00XX comes out as U+XX00 ("Pa爀琀" for "Part", "Con昀椀guration" for
 * "Configuration"; seen in the SpeedyBee F405 manual). Such words can neither be found nor quoted.
 * A run of letters is repaired only when it mixes ASCII letters with nothing but characters of
 * that shape, each standing for a Latin letter: real CJK text next to Latin letters ("USB接口")
 * always holds other characters, so it is left alone. Length-preserving: one character for one,
 * so glyph positions still line up.
 */
const SWAPPED = /[\u4100-\u5a00\u6100-\u7a00]/u;

function isSwappedLetter(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return (code & 0xff) === 0 && SWAPPED.test(ch);
}

export function repairSwappedBytes(text: string): string {
  if (!/[\u4100-\u7a00]/u.test(text)) return text;
  return text.replace(/\p{L}+/gu, (run) => {
    let ascii = 0;
    let swapped = 0;
    for (const ch of run) {
      if (/[A-Za-z]/.test(ch)) ascii++;
      else if (isSwappedLetter(ch)) swapped++;
      else return run;
    }
    if (!ascii || !swapped) return run;
    return [...run].map((ch) => (isSwappedLetter(ch) ? String.fromCharCode(ch.codePointAt(0)! >> 8) : ch)).join('');
  });
}
