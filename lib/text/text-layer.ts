/**
 * Repairs of a PDF's text layer as pdf.js extracts it, each one character for one, so the glyph
 * positions of the text still line up (value boxes are placed from them).
 */
/** U+4100…U+5A00 and U+6100…U+7A00: where swapped bytes put A–Z and a–z. */
const SWAPPED = /[\u4100-\u5a00\u6100-\u7a00]/u;

function isSwappedLetter(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return (code & 0xff) === 0 && SWAPPED.test(ch);
}

/**
 * Words whose ToUnicode map a PDF producer wrote with its bytes swapped: each Latin letter U+00XX
 * comes out as U+XX00 ("Pa爀琀" for "Part", "Con昀椀guration" for "Configuration"; seen in one
 * real manual), so they can neither be found nor quoted. A run of letters is repaired
 * only when it mixes ASCII letters with nothing but characters of that shape: real CJK text next
 * to Latin letters ("USB接口") always holds other characters, so it is left alone.
 */
export function repairSwappedBytes(text: string): string {
  if (!SWAPPED.test(text)) return text;
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

/**
 * Private-use characters (U+E000–U+F8FF) have no meaning outside the font that drew them: the
 * pieces of a large brace in a LaTeX table, a Wingdings bullet. In a passage or a quote they are
 * boxes ("\uf075 | Supports …"), so they become spaces.
 */
function blankPrivateUse(text: string): string {
  return text.replace(/[\ue000-\uf8ff]/gu, ' ');
}

/**
 * Full-width forms of ASCII (U+FF01–U+FF5E) and the ideographic space, which manuals written with
 * CJK input methods put inside English text ("Power supply：", "（2）Set", "１．Product"), become
 * ASCII: the one-for-one part of Unicode's compatibility normalisation (NFKC would also expand
 * "℃" and ligatures into two characters, and glyph positions are kept per character).
 */
function narrowFullWidth(text: string): string {
  return text.replace(/[\uff01-\uff5e\u3000]/gu, (ch) => (ch === '\u3000' ? ' ' : String.fromCharCode(ch.charCodeAt(0) - 0xfee0)));
}

/** Every repair above, for a span of the text layer. */
export function repairTextLayer(text: string): string {
  return narrowFullWidth(blankPrivateUse(repairSwappedBytes(text)));
}
