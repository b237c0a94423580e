/**
 * The environment: everything the tools found during a turn, keyed tool → result name, with a
 * stable reference number per hit. The same chunk or page found twice keeps its first number, so
 * a citation [n] means one thing for the whole turn.
 */
import type { BBox } from '@/lib/providers/types';
import { formatHit, type Hit, type ModelLookup, type RefHit, type Source, type ToolResult, type TopicTerms } from '../answer/hits';
import { terms, words } from '@/lib/text/analyze';
import { Bm25Index } from '@/lib/text/bm25';
import { truncate } from '@/lib/text/format';
import { citedRefs, splitSentences, stripCitations } from '@/lib/text/sentences';
import { valueBoxes } from '@/lib/answer/value-boxes';

export interface EnvironmentResult {
  tool: string;
  name: string;
  refs: number[];
  metadata: Record<string, unknown>;
  topicTerms?: TopicTerms;
  modelLookup?: ModelLookup;
  llmMessage: string;
  iteration: number;
}

const hitKey = (h: Hit) => (h.kind === 'chunk' ? `chunk:${h.chunkId}` : `page:${h.manualId}#${h.page}`);

export class Environment {
  /** tool → result name → results in the order they arrived. */
  readonly results: Record<string, Record<string, EnvironmentResult[]>> = {};
  readonly summaries: string[] = [];
  private readonly byRef = new Map<number, RefHit>();
  private readonly refByKey = new Map<string, number>();
  /** Bumped on every change; auto-triggers use it so they fire once per state, not in a loop. */
  version = 0;
  /** The version right after the last summary and compaction (-1: never summarized). */
  summarizedVersion = -1;

  /** Folds a tool result in; returns the hits with their (possibly pre-existing) refs. */
  add(tool: string, output: ToolResult, iteration: number): RefHit[] {
    const refHits: RefHit[] = [];
    for (const object of output.objects) {
      const key = hitKey(object);
      const existing = this.refByKey.get(key);
      if (existing !== undefined) {
        const merged = mergeHits(this.byRef.get(existing)!, object);
        this.byRef.set(existing, merged);
        if (!refHits.some((h) => h.ref === existing)) refHits.push(merged);
        continue;
      }
      const ref = this.byRef.size + 1;
      const refHit = { ...object, ref } as RefHit;
      this.byRef.set(ref, refHit);
      this.refByKey.set(key, ref);
      refHits.push(refHit);
    }
    const byName = (this.results[tool] ??= {});
    (byName[output.name] ??= []).push({
      tool,
      name: output.name,
      refs: refHits.map((h) => h.ref),
      metadata: output.metadata,
      ...(output.topicTerms ? { topicTerms: output.topicTerms } : {}),
      ...(output.modelLookup ? { modelLookup: output.modelLookup } : {}),
      llmMessage: output.llmMessage,
      iteration,
    });
    this.version++;
    return refHits;
  }

  /** Records a summary and shrinks long passages to what matters for the question. */
  applySummary(summary: string, question: string, maxCharsPerHit: number) {
    this.summaries.push(summary);
    this.compact(question, maxCharsPerHit);
    this.summarizedVersion = this.version;
  }

  hit(ref: number): RefHit | undefined {
    return this.byRef.get(ref);
  }

  /** All hits in reference order. */
  hits(): RefHit[] {
    return [...this.byRef.values()];
  }

  /** Hits that carry text worth quoting or citing. */
  textHits(): RefHit[] {
    return this.hits().filter((h) => !!h.text && h.text.trim().length > 0);
  }

  /** What each [n] stands for when an answer is checked against it: the passage with its heading. */
  citableTexts(): Map<number, string> {
    return new Map(this.textHits().map((h) => [h.ref, `${h.kind === 'chunk' ? h.heading : ''}\n${h.text ?? ''}`]));
  }

  /** The titles of the manuals the passages come from (an answer may name them). */
  manualTitles(): string[] {
    return [...new Set(this.textHits().map((h) => h.manualTitle ?? ''))].filter(Boolean);
  }

  ran(tool: string): boolean {
    return !!this.results[tool];
  }

  get isEmpty(): boolean {
    return this.byRef.size === 0 && this.summaries.length === 0;
  }

  /**
   * Pages found by the multi-vector page search, best first (page hits, plus chunks whose page
   * the visual leg also found). Visual interpretation reads the first one.
   */
  visualPages(): Array<{ manualId: string; page: number; score: number; ref: number }> {
    const seen = new Map<string, { manualId: string; page: number; score: number; ref: number }>();
    for (const h of this.byRef.values()) {
      const score = h.kind === 'page' ? h.score : h.visualScore;
      if (score === undefined) continue;
      const key = `${h.manualId}#${h.page}`;
      const prev = seen.get(key);
      if (!prev || score > prev.score) seen.set(key, { manualId: h.manualId, page: h.page, score, ref: h.ref });
    }
    return [...seen.values()].sort((a, b) => b.score - a.score);
  }

  /**
   * Manual → question terms that name its device (on most of its pages), as reported by the
   * searches (hybrid_search's topicTerms). The offline answer weighs them little.
   */
  topicTerms(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const byName of Object.values(this.results)) {
      for (const list of Object.values(byName)) {
        for (const r of list) {
          for (const [manualId, ts] of Object.entries(r.topicTerms ?? {})) {
            let set = out.get(manualId);
            if (!set) out.set(manualId, (set = new Set()));
            for (const t of ts) set.add(t);
          }
        }
      }
    }
    return out;
  }

  /** What the searches found out about their queries' model names (ToolResult.modelLookup), in the order they ran. */
  modelLookups(): ModelLookup[] {
    const out: ModelLookup[] = [];
    for (const byName of Object.values(this.results))
      for (const list of Object.values(byName)) for (const r of list) if (r.modelLookup) out.push(r.modelLookup);
    return out;
  }

  /** Sources for the refs an answer cites, in citation order; unknown refs are dropped. */
  sourcesFor(text: string): Source[] {
    const quotes = new Map<number, string[]>();
    for (const sentence of splitSentences(text)) {
      for (const ref of citedRefs(sentence)) quotes.set(ref, [...(quotes.get(ref) ?? []), stripCitations(sentence)]);
    }
    return citedRefs(text)
      .map((ref) => this.byRef.get(ref))
      .filter((h): h is RefHit => !!h)
      .map((h) => {
        const source = toSource(h);
        const boxes = quotedBoxes(h, quotes.get(h.ref) ?? []);
        return boxes ? { ...source, bboxes: boxes } : source;
      });
  }

  estimateTokens(): number {
    let chars = 0;
    for (const h of this.byRef.values()) chars += (h.text?.length ?? 0) + (h.kind === 'chunk' ? h.heading.length : 0) + 40;
    for (const byName of Object.values(this.results)) {
      for (const list of Object.values(byName)) for (const r of list) chars += r.llmMessage.length;
    }
    for (const s of this.summaries) chars += s.length;
    return Math.ceil(chars / 4);
  }

  /**
   * Shrinks every long passage to its sentences most relevant to the question (kept in reading
   * order), so a summarised environment fits the model again. Refs do not change.
   */
  compact(question: string, maxCharsPerHit: number) {
    const qTerms = terms(question);
    for (const [ref, h] of this.byRef) {
      if (!h.text || h.text.length <= maxCharsPerHit) continue;
      const sentences = splitSentences(h.text);
      const scores = new Bm25Index(sentences.map((s) => terms(s))).scoreEach(qTerms);
      const order = sentences.map((_, i) => i).sort((a, b) => scores[b] - scores[a]);
      const keep = new Set<number>();
      let used = 0;
      for (const i of order) {
        if (used + sentences[i].length > maxCharsPerHit && keep.size > 0) break;
        keep.add(i);
        used += sentences[i].length + 1;
      }
      const text = truncate(sentences.filter((_, i) => keep.has(i)).join(' '), maxCharsPerHit);
      this.byRef.set(ref, { ...h, text });
    }
    this.version++;
  }

  /** A plain-text view for prompts: results by tool, each hit as "[n] manual p.X — text". */
  describe(opts: { maxCharsPerHit?: number } = {}): string {
    const maxChars = opts.maxCharsPerHit ?? 300;
    const lines: string[] = [];
    for (const [tool, byName] of Object.entries(this.results)) {
      for (const [name, list] of Object.entries(byName)) {
        for (const r of list) {
          lines.push(`${tool} → ${name}: ${r.llmMessage}`);
          for (const ref of r.refs) lines.push(`  ${formatHit(this.byRef.get(ref)!, maxChars)}`);
        }
      }
    }
    if (this.summaries.length) lines.push(`Summary so far: ${this.summaries.at(-1)}`);
    return lines.length ? lines.join('\n') : '(empty: nothing retrieved yet)';
  }
}

/**
 * The boxes of the passage lines an answer quotes from it, so the preview boxes the quoted span
 * rather than the whole passage, followed by boxes around the values the quotes state (ValueBox,
 * marked by their `value`: see lib/answer/value-boxes.ts). A chunk has one box per text line; a
 * line is quoted when it and a quoted sentence contain one another (white space and case aside),
 * and a line holding a quoted value counts as quoted too. Undefined when nothing can be narrowed
 * (no line boxes, or no line matched): the whole passage stays highlighted.
 */
export function quotedBoxes(hit: RefHit, quotes: string[]): BBox[] | undefined {
  const lines = (hit.text ?? '').split('\n');
  if (!hit.bboxes?.length || lines.length !== hit.bboxes.length || quotes.length === 0) return undefined;
  const quoted = quotes.map((q) => new Set(words(q)));
  // Most of a line's words in a quote (a table row is quoted with its header's words added), or a
  // short quote inside one long line.
  const within = (a: string[], b: Set<string>) => a.length > 0 && a.filter((t) => b.has(t)).length / a.length >= QUOTED_SHARE;
  const picked = lines.flatMap((text, i) => {
    const line = words(text);
    if (line.length < 2) return [];
    const lineSet = new Set(line);
    return quoted.some((q) => within(line, q) || within([...q], lineSet)) ? [i] : [];
  });
  const values = valueBoxes(lines, hit.bboxes, quotes, picked);
  const withValues = [...new Set([...picked, ...values.map((v) => v.line)])].sort((a, b) => a - b);
  if (!withValues.length) return undefined;
  return [...withValues.map((i) => hit.bboxes![i]), ...values.map(({ line: _line, ...box }) => box)];
}

/** Share of one side's words the other must contain for a line to count as quoted. */
const QUOTED_SHARE = 0.8;

/** Where a hit stands (ref, manual, page, chunk, heading): what a citation and a trail event both start with. */
export function hitPlace(hit: RefHit) {
  return {
    ref: hit.ref,
    kind: hit.kind,
    manualId: hit.manualId,
    ...(hit.manualTitle ? { manualTitle: hit.manualTitle } : {}),
    page: hit.page,
    ...(hit.chunkId ? { chunkId: hit.chunkId } : {}),
    ...(hit.heading ? { heading: hit.heading } : {}),
  };
}

/** What a citation needs to open the page and highlight the passage. */
function toSource(hit: RefHit): Source {
  return {
    ...hitPlace(hit),
    snippet: truncate((hit.text ?? '').replace(/\s+/g, ' ').trim(), 300),
    ...(hit.bboxes?.length ? { bboxes: hit.bboxes } : {}),
    ...(hit.previewUrl ? { previewUrl: hit.previewUrl } : {}),
  };
}

function mergeHits(old: RefHit, next: Hit): RefHit {
  if (old.kind === 'page' && next.kind === 'page') {
    // A VLM reading of the page replaces the passage text: it is what the user asked to look at.
    const takeText = !!next.text && (!old.text || next.textSource === 'vlm');
    return {
      ...old,
      score: Math.max(old.score, next.score),
      ...(takeText ? { text: next.text, textSource: next.textSource } : {}),
      chunkId: old.chunkId ?? next.chunkId,
      heading: old.heading ?? next.heading,
      bboxes: old.bboxes ?? next.bboxes,
    };
  }
  if (old.kind === 'chunk' && next.kind === 'chunk') {
    const visualScore = Math.max(old.visualScore ?? -Infinity, next.visualScore ?? -Infinity);
    return {
      ...old,
      score: Math.max(old.score, next.score),
      ...(Number.isFinite(visualScore) ? { visualScore } : {}),
      previewUrl: old.previewUrl ?? next.previewUrl,
      thumbnailUrl: old.thumbnailUrl ?? next.thumbnailUrl,
    };
  }
  return old;
}
