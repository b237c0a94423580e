/**
 * Rehype plugins for answers. They run AFTER rehype-sanitize, on the already-safe tree, and only
 * add elements the chat renders itself: `cite` for [n] citation chips and `mark` for sentences
 * the answer check could not support. Text inside code, pre and links is left alone.
 */
import remarkGfm from 'remark-gfm';
import type { Options } from 'react-markdown';
import { CITATION } from '@/lib/answer/citations';

interface HText {
  type: 'text';
  value: string;
}
interface HElement {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: HNode[];
}
interface HOther {
  type: 'root' | 'comment' | 'doctype' | 'raw';
  children?: HNode[];
  value?: string;
}
type HNode = HText | HElement | HOther;
type HParent = { children: HNode[] };

const SKIP = new Set(['code', 'pre', 'a', 'cite', 'script', 'style']);

function isParent(node: HNode): node is HNode & HParent {
  return Array.isArray((node as HParent).children);
}

/** Calls `fn` for every text node outside SKIP elements; `fn` returns replacement nodes or null. */
function mapText(node: HNode, fn: (text: HText) => HNode[] | null): void {
  if (!isParent(node)) return;
  const next: HNode[] = [];
  let changed = false;
  for (const child of node.children) {
    if (child.type === 'text') {
      const replaced = fn(child);
      if (replaced) {
        next.push(...replaced);
        changed = true;
        continue;
      }
    } else if (!(child.type === 'element' && SKIP.has(child.tagName))) {
      mapText(child, fn);
    }
    next.push(child);
  }
  if (changed) node.children = next;
}

const text = (value: string): HText => ({ type: 'text', value });

/** Splits "… 24 V DC [3]." into text and one `cite` element per referenced number. */
export function rehypeCitations() {
  return (tree: HNode) => {
    mapText(tree, (node) => {
      CITATION.lastIndex = 0;
      if (!CITATION.test(node.value)) return null;
      CITATION.lastIndex = 0;
      const out: HNode[] = [];
      let last = 0;
      for (const m of node.value.matchAll(CITATION)) {
        const before = node.value.slice(last, m.index);
        if (before) out.push(text(before.replace(/\s+$/, ' ')));
        for (const ref of m[1].split(',').map((n) => Number(n.trim()))) {
          out.push({ type: 'element', tagName: 'cite', properties: { dataRef: String(ref) }, children: [text(String(ref))] });
        }
        last = m.index + m[0].length;
      }
      const after = node.value.slice(last);
      if (after) out.push(text(after));
      return out;
    });
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pattern that finds `needle` in text whatever the whitespace between its words. */
function loosePattern(needle: string): RegExp {
  return new RegExp(needle.trim().split(/\s+/).map(escapeRegExp).join('\\s+'));
}

/** What of a sentence to look for in the rendered text (markdown markers are gone there). */
function candidates(sentence: string): string[] {
  const plain = sentence
    .replace(/^\s*(?:\d{1,2}[.)]|[-*•])\s+/, '')
    .replace(/\*\*|__|`/g, '')
    .trim();
  const out = [plain];
  const words = plain.split(/\s+/);
  if (words.length > 6) out.push(words.slice(0, 6).join(' '));
  return out.filter((c) => c.length >= 8);
}

function textOf(node: HNode): string {
  if (node.type === 'text') return node.value;
  return isParent(node) ? node.children.map(textOf).join('') : '';
}

const BLOCKS = new Set(['p', 'li', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote']);
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The innermost block whose text is (mostly) the sentence: formatting split it across nodes. */
function markBlock(node: HNode, sentence: string, reason: string): boolean {
  if (!isParent(node)) return false;
  for (const child of node.children) {
    if (child.type === 'element' && !SKIP.has(child.tagName) && markBlock(child, sentence, reason)) return true;
  }
  if (node.type !== 'element' || !BLOCKS.has(node.tagName)) return false;
  const content = squash(textOf(node));
  if (!content.includes(sentence) || content.length > sentence.length * 1.5) return false;
  node.children = [{ type: 'element', tagName: 'mark', properties: { dataReason: reason }, children: node.children }];
  return true;
}

/** Wraps each unsupported sentence (or its start, when formatting splits it) in a `mark`. */
export function rehypeUnsupported(options: { sentences: Array<{ sentence: string; reason: string }> }) {
  return (tree: HNode) => {
    for (const { sentence, reason } of options.sentences ?? []) {
      let done = false;
      for (const needle of candidates(sentence)) {
        if (done) break;
        const pattern = loosePattern(needle);
        const whole = needle.length >= sentence.length - 8;
        mapText(tree, (node) => {
          if (done) return null;
          const m = pattern.exec(node.value);
          if (!m) return null;
          done = true;
          const end = whole ? m.index + m[0].length : node.value.length;
          const out: HNode[] = [];
          if (m.index > 0) out.push(text(node.value.slice(0, m.index)));
          out.push({ type: 'element', tagName: 'mark', properties: { dataReason: reason }, children: [text(node.value.slice(m.index, end))] });
          if (end < node.value.length) out.push(text(node.value.slice(end)));
          return out;
        });
      }
      const plain = candidates(sentence)[0];
      if (!done && plain) markBlock(tree, squash(plain), reason);
    }
  };
}

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * Remark plugin: raw HTML in an answer (quoted from a manual, or written by a model) is shown as
 * literal text. Without it react-markdown drops an HTML block whole, so a quoted line starting
 * with "<script>" would vanish together with the ordinary words on it. Never executed either way.
 */
function remarkHtmlAsText() {
  const visit = (node: MdNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(visit);
  };
  return (tree: MdNode) => visit(tree);
}

/**
 * The remark plugins of an answer. `singleTilde: false`: "~" between numbers ("3~9 V",
 * "2.5~3.65 V", how manuals write ranges) stays text; only "~~…~~" strikes through.
 */
export const remarkPlugins: NonNullable<Options['remarkPlugins']> = [[remarkGfm, { singleTilde: false }], remarkHtmlAsText];

/**
 * Text quoted from a manual (an offline answer), as markdown that reads back exactly as written:
 * every ASCII punctuation character is backslash-escaped (CommonMark lets any of them be), so no
 * "~", "*", "_", "`", "|", "<", "#" or "1." is taken for syntax, and a line break stays a line
 * break. Escaping beats a second renderer: the same pipeline still draws the [n] chips (the
 * escaped "\[3\]" is the text "[3]" again) and marks unsupported sentences.
 */
export function literalMarkdown(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trimStart().replace(/[!-/:-@[-`{-~]/g, '\\$&'))
    .join('\\\n');
}
