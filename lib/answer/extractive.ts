/**
 * Offline answers: the passages' best sentences and table rows, each cited, or a plain "The
 * manuals do not say …" when they do not cover the question.
 *
 * - Units: a passage splits into sentences, list items and table rows; wrapped lines are joined
 *   first. A row is quoted whole with its table's header ("Code: E05; Meaning: …"); the header,
 *   like the heading and an FAQ question line above an answer, is context that helps a unit rank
 *   but is not quoted as the answer itself.
 * - Scoring: the question's terms (termGroups: "3.3 V" = "3.3V", part numbers, "ten" = 10)
 *   weighted by their rarity among the units; the device or manual name (in the manual's title,
 *   or in most passages) weighs little, since it picks nothing. Units with values (numbers,
 *   codes), steps for "how do I" questions, and units from the better-ranked pages are preferred;
 *   a bare heading, a label or an OCR fragment never answers.
 * - Selection: greedy coverage, so a two-part question ("which chip, and how much current?") gets
 *   a unit for each part, from the top two pages of one manual (multi-hop answers). Context is
 *   added where a unit is useless alone: a list after its intro ("…as follows:"), the steps of a
 *   procedure, the value sentences after a topic sentence, the sentence a "This …" refers to.
 * - Declining: by how much of the question, word by word, the chosen units and the headings above
 *   them cover (the device name counts little, a word no passage has less than a known one the
 *   answer lacks). A question about a property the
 *   passages never state ("bandwidth" of a scope whose manual has none) is declined instead of
 *   being answered with whatever the manual says about the device.
 */
import type { RefHit } from '@/lib/agent/hits';
import { NO_EVIDENCE, shouldDecline, type AnswerEvidence, type DeclinePolicy } from '@/lib/answer/decide';
import { declineSentence, unknownDeviceSentence, whereLooked } from '@/lib/answer/word';
import { askedSpan } from '@/lib/text/asked';
import { matchTerms, termGroups, terms, words } from '@/lib/text/analyze';
import { Bm25Index } from '@/lib/text/bm25';
import { askedKinds, valueKinds } from '@/lib/text/quantities';
import { splitSentences } from '@/lib/text/sentences';

const MAX_UNITS = 3;
/** For "how do I …", matching steps answer first if they score this share of the best unit. */
const STEP_SHARE = 0.4;
/** An asked quantity is looked for on this many of the best pages (0-based rank). */
const RESCUE_PAGES = 4;
const MAX_ANSWER_CHARS = 900;
/** A unit longer than this is quoted by its sentences that answer. */
const MAX_UNIT_CHARS = 300;
/** Coverage weights of question words. */
const TOPIC_WEIGHT = 0.25;
/** A word no retrieved passage contains is often the technician's paraphrase ("tells me"). */
const UNKNOWN_WEIGHT = 0.6;
/** Score shares of a term found only in a unit's context: its table header or FAQ question, its heading. */
const CONTEXT_SHARE = 0.5;
const HEADING_SHARE = 0.3;
/** Score share of a term that names the manual's device. */
const TOPIC_SCORE_SHARE = 0.5;
/** Saturation and (mild) length normalisation of a unit's score. */
const K1 = 1.2;
const B = 0.3;

export interface ExtractiveAnswer {
  text: string;
  /** The cited sentences `text` is made of, in order (streamed one by one). */
  parts: string[];
  refs: number[];
  declined: boolean;
  coverage: number;
  /** What the decision to answer or decline was based on. */
  evidence: AnswerEvidence;
}

type UnitKind = 'sentence' | 'item' | 'row' | 'header' | 'question';

interface Unit {
  ref: number;
  /** From a vision model's reading of the page, asked this very question. */
  vlm: boolean;
  /** The page's position among the retrieved pages (0 = best). */
  pageRank: number;
  hitRank: number;
  manualId: string;
  position: number;
  kind: UnitKind;
  /** As quoted (a row with its header). */
  text: string;
  terms: Set<string>;
  /** Terms of the table header or FAQ question the unit sits under. */
  context: Set<string>;
  /** Under an FAQ question: the position of the answer's first unit (its most direct sentence). */
  answerStart?: number;
  length: number;
  hasValue: boolean;
  isIntro: boolean;
  /** Terms of the unit's label: a row's first cell, or the words before "label: value". */
  label: Set<string>;
}

interface Passage {
  hit: RefHit;
  units: Unit[];
  terms: Set<string>;
  headingTerms: Set<string>;
  headingSegments: Set<string>;
}

const ROW_SEPARATOR = /\s\|\s|\s\|$|^\|\s/;
const isRow = (line: string) => ROW_SEPARATOR.test(line) && line.split('|').filter((c) => c.trim()).length >= 2;
const cellsOf = (line: string) => line.split('|').map((c) => c.trim());
/** A table header: every cell a short label, at most one with a digit (OCR noise). */
function isHeaderRow(line: string): boolean {
  const cells = cellsOf(line).filter(Boolean);
  const withDigits = cells.filter((c) => /\d/.test(c)).length;
  return cells.length >= 2 && withDigits <= (cells.length >= 3 ? 1 : 0) && cells.every((c) => c.split(/\s+/).length <= 4);
}
const ITEM = /^(\(?\d{1,2}[.)]|[•●▪◦·*–-])\s*\S/;
/** A value a technician asks for: a number, a code with digits, a file type (".NC"). */
const VALUE = /\d|(?:^|[\s;,(])\.[A-Za-z]{1,6}\b/;
/** A numbered step ("3." / "3)") or the intro of a list of them. */
const isStep = (u: Unit) => u.isIntro || (u.kind === 'item' && /^\(?\d/.test(u.text));
/** Words that make a sentence lean on the one before it. */
const ANAPHORIC = /^(now|then|this|these|that|those|it|they|here|so|thus|therefore|otherwise|in this case|in that case)\b/i;
const PROCEDURAL = /\b(how (do|can|should|would|must) (i|we|you)|how to|what steps|which steps|procedure|set ?up|step by step)\b/i;
const normalise = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** "Code: E05; Meaning: Overpressure …" when the header fits the row, else the row as printed. */
function renderRow(row: string, header: string | undefined): string {
  if (!header) return row;
  const h = cellsOf(header);
  const c = cellsOf(row);
  if (h.length !== c.length) return row;
  return c
    .map((cell, i) => (h[i] && cell ? `${h[i]}: ${cell}` : cell))
    .filter(Boolean)
    .join('; ');
}

/**
 * A table row wrapped onto the next line: the continuation's cells continue the row's last cells
 * ("E03 | Pressure signal below 3.6 mA (wire | Check …" + "break) | current at J3 …").
 */
function mergeRow(row: string, continuation: string): string {
  const cells = cellsOf(row);
  const more = isRow(continuation) ? cellsOf(continuation) : [continuation];
  const offset = Math.max(0, cells.length - more.length);
  more.forEach((c, i) => {
    const at = Math.min(cells.length - 1, offset + i);
    if (c) cells[at] = cells[at] ? `${cells[at]} ${c}` : c;
  });
  return cells.join(' | ');
}

// A label is short and in mixed case ("Service menu PIN"): a line in capitals ("HEATER") is more
// often a signal name in a drawing, whose neighbour line is not its value.
const LABEL = (l: string) =>
  l.split(' ').length <= 4 && /\p{L}{3,}/u.test(l) && /\p{Ll}/u.test(l) && !/[.!?:;,]$/.test(l) && !isRow(l);
const LABEL_VALUE = (l: string) => l.split(' ').length <= 6 && /\d/.test(l) && !/[.!?]$/.test(l) && !isRow(l);

/**
 * Lines → logical lines: wrapped prose and wrapped table cells joined back. In OCR text of a
 * label or a rating plate, a short label line and the value line under it become one row
 * ("Service menu PIN" + "4071" → "Service menu PIN | 4071").
 */
function logicalLines(text: string, ocr = false): string[] {
  const raw = text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const lines: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (ocr && i + 1 < raw.length && LABEL(raw[i]) && LABEL_VALUE(raw[i + 1]) && !/^\d/.test(raw[i])) {
      lines.push(`${raw[i]} | ${raw[i + 1]}`);
      i++;
    } else {
      lines.push(raw[i]);
    }
  }
  const out: string[] = [];
  for (const line of lines) {
    const prev = out.at(-1);
    const continues = prev !== undefined && /^[\p{Ll}(]/u.test(line) && (isRow(prev) || !/[.!?:;]$/.test(prev)) && !ITEM.test(line);
    if (continues) out[out.length - 1] = isRow(prev) ? mergeRow(prev, line) : `${prev} ${line}`;
    else out.push(line);
  }
  return out;
}

/** A row's first cell, or the words before the colon of a short "label: value" line ('' for none). */
function labelOf(kind: UnitKind, raw: string): string {
  if (kind === 'row') return cellsOf(raw).find(Boolean) ?? '';
  const colon = raw.indexOf(': ');
  return colon > 0 && raw.slice(0, colon).split(/\s+/).length <= 6 ? raw.slice(0, colon) : '';
}

export function passageUnits(hit: RefHit, hitRank: number, pageRank: number): Unit[] {
  const units: Unit[] = [];
  let header: string | undefined;
  let context = new Set<string>();
  let answerStart: number | undefined;
  const add = (kind: UnitKind, text: string, raw = text) => {
    const list = matchTerms(raw);
    units.push({
      ref: hit.ref,
      vlm: hit.kind === 'page' && hit.textSource === 'vlm',
      hitRank,
      pageRank,
      manualId: hit.manualId,
      position: units.length,
      kind,
      text,
      terms: new Set(list),
      context: kind === 'row' && header ? new Set(matchTerms(header)) : context,
      ...(answerStart !== undefined && kind !== 'question' ? { answerStart } : {}),
      length: list.length,
      hasValue: VALUE.test(raw),
      isIntro: /:\s*$/.test(text),
      label: new Set(matchTerms(labelOf(kind, raw))),
    });
  };
  const lines = logicalLines(hit.text ?? '', hit.kind === 'chunk' && hit.ocr);
  lines.forEach((line, i) => {
    if (isRow(line)) {
      // Only the first row of a table (followed by more rows) can be its header; a label row
      // right under it continues it ("Bit Addr | Domain").
      const first = !(i > 0 && isRow(lines[i - 1])) && i + 1 < lines.length && isRow(lines[i + 1]);
      const continuesHeader = i > 0 && lines[i - 1] === header && !/\d/.test(line);
      if ((first && isHeaderRow(line)) || continuesHeader) {
        if (first) header = line;
        add('header', line);
      } else {
        add('row', renderRow(line, header), line);
      }
      return;
    }
    // A new table caption ends the table; a wrapped cell that starts a line ("Check power supply
    // G1.") does not, so the rows after it keep their header.
    if (/^table\s+\d/i.test(line)) header = undefined;
    // An FAQ question is the context of the answer below it, not an answer.
    if (/\?\s*$/.test(line)) {
      context = new Set(matchTerms(line));
      for (const s of splitSentences(line)) add('question', s);
      answerStart = units.length;
      return;
    }
    // A list item stays whole: its sentences belong to one step.
    if (ITEM.test(line)) add('item', line);
    else for (const s of splitSentences(line)) add(ITEM.test(s) ? 'item' : 'sentence', s);
  });
  return units;
}

export interface ExtractiveOptions {
  /** Manual → terms naming its device (hybrid_search's topic_terms); the title's terms always count. */
  topicTerms?: Map<string, Set<string>>;
  /** When to decline; default: the policy chosen under cross-validation (lib/answer/decline.json). */
  declinePolicy?: DeclinePolicy;
  /** Maker + model names the question gives that no manual of the library mentions ("Rigol DP832"). */
  unknownDevices?: readonly string[];
}

export function extractiveAnswer(question: string, hits: RefHit[], opts: ExtractiveOptions = {}): ExtractiveAnswer {
  const withText = hits.filter((h) => h.text && h.text.trim());
  const pageOrder: string[] = [];
  for (const h of withText) {
    const key = `${h.manualId}#${h.page}`;
    if (!pageOrder.includes(key)) pageOrder.push(key);
  }
  const passages: Passage[] = withText.map((hit, hitRank) => ({
    hit,
    units: passageUnits(hit, hitRank, pageOrder.indexOf(`${hit.manualId}#${hit.page}`)),
    terms: new Set(matchTerms(`${hit.heading ?? ''}\n${hit.text ?? ''}`)),
    headingTerms: new Set(matchTerms(hit.heading ?? '')),
    headingSegments: new Set((hit.heading ?? '').split('>').map(normalise).filter(Boolean)),
  }));
  const units = passages.flatMap((p) => p.units);
  const known = (t: string) => passages.some((p) => p.terms.has(t));
  const groups = termGroups(question, known);
  const qTerms = [...new Set(groups.flat())];
  if (passages.length === 0 || qTerms.length === 0) return decline(question, NO_EVIDENCE);

  // The topic of a manual: its title's terms and the question terms on most of its pages.
  const topics = new Map<string, Set<string>>();
  const titles = new Map<string, Set<string>>();
  for (const p of passages) {
    if (topics.has(p.hit.manualId)) continue;
    titles.set(p.hit.manualId, new Set(matchTerms(p.hit.manualTitle ?? '')));
    topics.set(p.hit.manualId, new Set([...titles.get(p.hit.manualId)!, ...(opts.topicTerms?.get(p.hit.manualId) ?? [])]));
  }
  const isTopic = (t: string, manualId: string) => topics.get(manualId)!.has(t);
  const anyTopic = (t: string) => [...topics.values()].some((s) => s.has(t));
  // The words that name a manual's device: its title's words that the library finds mostly in
  // that manual (topicTerms) or that no other retrieved manual's passages use. A common word in a
  // title ("board" in "… smart protection board … manual") names nothing: a question about a
  // power supply board is not about that manual.
  const usedElsewhere = (t: string, id: string) => passages.some((p) => p.hit.manualId !== id && p.terms.has(t));
  const nameTerms = new Map([...titles].map(([id, ts]) => [id, new Set([...ts].filter((t) => opts.topicTerms?.get(id)?.has(t) || !usedElsewhere(t, id)))]));
  const named = namedManual(nameTerms, qTerms);
  // The question names a device by maker and model that no manual mentions (and no model one does,
  // nor a manual by its title): another device's passages would only mislead.
  if (opts.unknownDevices?.length && !named) {
    const text = unknownDeviceSentence(opts.unknownDevices);
    return { text, parts: [text], refs: [], declined: true, coverage: 0, evidence: NO_EVIDENCE };
  }

  // Term weights: rare among the units; the topic weighs little.
  // Words the technician quotes ('Normal', "Calculate") are labels to match exactly: they weigh double.
  const quoted = new Set([...question.matchAll(/['"‘“]([^'"’”]{2,40})['"’”]/g)].flatMap((m) => matchTerms(m[1])));
  const n = units.length;
  const weight = new Map<string, number>();
  for (const t of qTerms) {
    const df = units.filter((u) => u.terms.has(t)).length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    weight.set(t, idf * (anyTopic(t) ? TOPIC_SCORE_SHARE : 1) * (quoted.has(t) ? 2 : 1));
  }
  const avgLength = units.reduce((s, u) => s + u.length, 0) / (n || 1);
  const passageOf = new Map(passages.map((p) => [p.hit.ref, p]));
  const procedural = PROCEDURAL.test(question);

  // A question whose words all name the manual's subject ("How much oil does the GX-4 gearbox
  // take?" of a note titled "Gearbox GX-4 oil change") is matched by those words.
  const onlyTopic = (manualId: string) => qTerms.every((t) => isTopic(t, manualId));
  const answerLike = (u: Unit) => {
    if (u.kind === 'header' || u.kind === 'question') return false;
    const p = passageOf.get(u.ref)!;
    if (p.headingSegments.has(normalise(u.text))) return false;
    // A label, a title line or an OCR fragment ("3 x1 Vin", "Fuse F1", "SKR MINI E3 V2.0") is
    // not an answer; a table row can be short.
    return u.kind === 'row' || isSentenceLike(u.text);
  };
  const eligible = (u: Unit) => {
    if (!answerLike(u)) return false;
    return qTerms.some((t) => (u.terms.has(t) || u.context.has(t)) && (!isTopic(t, u.manualId) || onlyTopic(u.manualId)) && (weight.get(t) ?? 0) > 0);
  };
  const candidates = units.filter(eligible);
  const norm = (u: Unit) => (K1 + 1) / (1 + K1 * (1 - B + (B * u.length) / (avgLength || 1)));
  // Values, steps for "how do I" and better-ranked pages are preferred; so is a line whose label
  // is the phrase the question asks for ("Supply voltage | 24 V DC" for "what supply voltage"):
  // it states that very thing, where other lines only mention it. The share is the labels' Dice.
  const askedPhrase = askedSpan(question);
  const askedTerms = new Set(matchTerms(askedPhrase ?? ''));
  const labelShare = (u: Unit) => {
    if (!askedTerms.size || !u.label.size || !u.hasValue) return 0;
    const shared = [...askedTerms].filter((t) => u.label.has(t)).length;
    return (2 * shared) / (askedTerms.size + u.label.size);
  };
  const prior = (u: Unit) =>
    ((u.hasValue ? 1.15 : 1) * (procedural && (u.kind === 'item' || u.isIntro) ? 1.3 : 1) * (1 + labelShare(u))) / (1 + 0.15 * u.pageRank);
  const score = (u: Unit, covered: Set<string>) => {
    const heading = passageOf.get(u.ref)!.headingTerms;
    let s = 0;
    for (const t of qTerms) {
      const w = weight.get(t)!;
      if (u.terms.has(t)) s += covered.has(t) ? 0.25 * w : w;
      else if (covered.has(t)) continue;
      else if (u.context.has(t)) s += CONTEXT_SHARE * w;
      else if (heading.has(t)) s += HEADING_SHARE * w;
    }
    // Coordination: a unit that meets more of the question's words beats one rare word.
    const met = groups.filter((g) => g.some((t) => u.terms.has(t) || u.context.has(t))).length;
    return s * Math.sqrt(met / (groups.length || 1)) * norm(u) * prior(u);
  };

  const askedQuantities = askedKinds(question, askedPhrase);
  // Greedy coverage: the best unit, then units that answer what it leaves open.
  const chosen: Unit[] = [];
  const covered = new Set<string>();
  // The manual of the device the question names answers, when any of its passages can: another
  // device's passage that shares more words is about the wrong device.
  const ofNamed = candidates.filter((u) => u.manualId === named);
  const scoped = ofNamed.length ? ofNamed : candidates;
  while (chosen.length < MAX_UNITS) {
    let best: Unit | undefined;
    let bestScore = 0;
    // The vision model's reading of the figure, when there is one, answers first: it was asked
    // this very question about the page the search found.
    const pool = chosen.length === 0 && scoped.some((u) => u.vlm) ? scoped.filter((u) => u.vlm) : scoped;
    for (const u of pool) {
      if (chosen.includes(u)) continue;
      if (chosen.length && u.manualId !== chosen[0].manualId) continue;
      if (chosen.some((c) => nearDuplicate(c.terms, u.terms))) continue;
      // A further unit must itself say something the chosen ones do not: a new content word.
      if (chosen.length && !qTerms.some((t) => u.terms.has(t) && !covered.has(t) && !isTopic(t, u.manualId))) continue;
      const s = score(u, covered);
      const earlier = best && (u.hitRank < best.hitRank || (u.hitRank === best.hitRank && u.position < best.position));
      if (s > bestScore || (s === bestScore && earlier)) {
        best = u;
        bestScore = s;
      }
    }
    if (!best || bestScore <= 0) break;
    if (chosen.length === 0 && procedural && !isStep(best)) {
      // "How do I …" is answered with the steps when the pages have matching ones; the
      // explanation that outscored them can follow as the next unit.
      const steps = scoped.filter(isStep).map((u) => ({ u, s: score(u, covered) }));
      const step = steps.sort((a, b) => b.s - a.s)[0];
      if (step && step.s >= bestScore * STEP_SHARE) {
        best = step.u;
        bestScore = step.s;
      }
    }
    chosen.push(best);
    for (const t of best.terms) covered.add(t);
  }
  if (chosen.length === 0) return decline(question, NO_EVIDENCE);

  // A question that asks for a quantity ("what torque", "how much current") needs a unit that
  // states one: take the best such unit of the answer's pages, or decline when there is none.
  const manualId = chosen[0].manualId;
  let quantityMissing = false;
  const rescued: Unit[] = [];
  const siblingsOf = (u: Unit) => passageOf.get(u.ref)!.units;
  for (const kind of askedQuantities) {
    const states = (u: Unit) => valueKinds(u.text).has(kind);
    // A chosen unit states it already, or (the first one, without a value) the value units after it.
    const follows = (u: Unit) => u === chosen[0] && !u.hasValue && siblingsOf(u).slice(u.position + 1, u.position + 3).some(states);
    if (chosen.some((u) => states(u) || follows(u))) continue;
    // On the best page any line may state it in other words ("power consumption … 130 mA" for
    // "how much current does it draw"); elsewhere the line must share a word with the question.
    const stated = (u: Unit) => (u.pageRank === 0 ? answerLike(u) : u.pageRank <= RESCUE_PAGES && eligible(u));
    const pool = units.filter((u) => u.manualId === manualId && !chosen.includes(u) && states(u) && stated(u));
    const rescue = pool.sort((a, b) => score(b, covered) - score(a, covered))[0];
    if (!rescue) {
      quantityMissing = true;
      continue;
    }
    chosen.push(rescue);
    rescued.push(rescue);
    for (const t of rescue.terms) covered.add(t);
  }

  // Coverage of the question, word by word, by the chosen units and the headings and context
  // above them. The device name counts little (any passage of the manual covers it), a word no
  // passage has at all less than a known word the answer lacks.
  const answerTerms = new Set<string>(covered);
  for (const u of chosen) {
    for (const t of passageOf.get(u.ref)!.headingTerms) answerTerms.add(t);
    for (const t of u.context) answerTerms.add(t);
  }
  let total = 0;
  let got = 0;
  const missing: string[] = [];
  for (const g of groups) {
    const topic = g.some((t) => isTopic(t, manualId));
    const w = topic ? TOPIC_WEIGHT : g.some(known) ? 1 : UNKNOWN_WEIGHT;
    total += w;
    if (topic || g.some((t) => answerTerms.has(t))) got += w;
    else missing.push(...g);
  }
  const coverage = got / (total || 1);
  // The chosen units with their context, within the length budget, then in reading order:
  // passage by passage (in the order the answer chose them), and in each by position.
  // A long unit (a list item that runs on for a paragraph) is quoted by its sentences that say
  // something the question asks: its words (not the device name) or a value of the asked kind.
  // Each run of kept sentences is cited on its own, so every value sits next to its source.
  const quote = new Map<Unit, string[]>();
  const quoteOf = (u: Unit): string[] => {
    if (quote.has(u)) return quote.get(u)!;
    let pieces = [u.text];
    const sentences = u.text.length > MAX_UNIT_CHARS ? splitSentences(u.text) : [];
    if (sentences.length > 1) {
      const says = (s: string) => {
        const ts = new Set(matchTerms(s));
        return qTerms.some((t) => ts.has(t) && !isTopic(t, u.manualId)) || [...askedQuantities].some((k) => valueKinds(s).has(k));
      };
      const keep = sentences.map((s, i) => (says(s) ? i : -1)).filter((i) => i >= 0);
      if (keep.length && keep.length < sentences.length) {
        pieces = [];
        keep.forEach((i, j) => {
          if (j > 0 && keep[j - 1] === i - 1) pieces[pieces.length - 1] += ` ${sentences[i]}`;
          else pieces.push(j > 0 ? `… ${sentences[i]}` : sentences[i]);
        });
      }
    }
    quote.set(u, pieces);
    return pieces;
  };
  const quotedLength = (u: Unit) => quoteOf(u).reduce((n, p) => n + p.length + 6, 0);
  const used = new Set<Unit>();
  let chars = 0;
  // A unit rescued for an asked quantity is quoted right after the first: it is why the answer
  // counts as stating that quantity, so the length budget must not drop it.
  const readable = readableFor(question);
  const byPriority = [chosen[0], ...rescued, ...chosen.slice(1).filter((u) => !rescued.includes(u))];
  byPriority.forEach((u, i) => {
    if (i > 0 && chars + quotedLength(u) > MAX_ANSWER_CHARS) return;
    for (const c of withContext(u, passageOf.get(u.ref)!.units, procedural, i === 0, readable)) {
      if (used.has(c) || (c !== u && chars + quotedLength(c) > MAX_ANSWER_CHARS)) continue;
      used.add(c);
      chars += quotedLength(c);
    }
  });
  const passageOrder = [...new Set(chosen.map((u) => u.ref))];
  const ordered = [...used].sort((a, b) => passageOrder.indexOf(a.ref) - passageOrder.indexOf(b.ref) || a.position - b.position);
  // A list intro ("… as follows:") whose list is not quoted ends as a sentence, not on a colon.
  const dangling = (u: Unit, i: number) => u.isIntro && !(ordered[i + 1]?.ref === u.ref && ordered[i + 1].position === u.position + 1);
  const parts = ordered.flatMap((u, i) => quoteOf(u).map((piece) => cite(dangling(u, i) ? piece.replace(/:\s*$/, '') : piece, u.ref)));
  // An asked quantity the quoted answer does not state (its unit fell to the length budget) is
  // missing from the answer, whatever the passages hold.
  const quotedKinds = valueKinds(parts.join(' '));
  if ([...askedQuantities].some((k) => !quotedKinds.has(k))) quantityMissing = true;
  const evidence: AnswerEvidence = { coverage, quantityMissing };
  const namesDevice = [...topics.get(manualId)!].some((t) => qTerms.includes(t));
  const titleOf = (id: string) => passages.find((p) => p.hit.manualId === id)?.hit.manualTitle ?? id;
  const where = whereLooked(question, titleOf(manualId), namesDevice);
  if (shouldDecline(evidence, opts.declinePolicy)) return decline(question, evidence, where);
  // Applicability: the question names another manual's device, and that manual had nothing to
  // quote (namedManual would have put it first). Another device's value would mislead a
  // technician — a baud rate, a rating — so the honest answer is that the asked device's manual
  // does not say. Unless the evidence's own passages name that device too (a copy or revision of
  // its manual under another title): then it is the same device's manual.
  const namedIn = (t: string) => passages.some((p) => p.hit.manualId === manualId && p.terms.has(t));
  const asked = namesDevice
    ? undefined
    : [...topics].find(([id, ts]) => {
        const deviceTerms = [...ts].filter((t) => qTerms.includes(t));
        return id !== manualId && deviceTerms.length > 0 && !deviceTerms.every(namedIn);
      });
  if (asked) return decline(question, evidence, whereLooked(question, titleOf(asked[0]), true));

  return { text: parts.join(' '), parts, refs: passageOrder, declined: false, coverage, evidence };
}

/**
 * The manual whose device the question names: the one whose naming terms the question shares
 * most, each term weighted by how few manuals it names (inverse document frequency over the
 * manuals at hand). Undefined when none or a tie.
 */
function namedManual(names: Map<string, Set<string>>, qTerms: string[]): string | undefined {
  const m = names.size;
  const df = (t: string) => [...names.values()].filter((s) => s.has(t)).length;
  const scores = [...names].map(([id, ts]) => ({ id, score: qTerms.filter((t) => ts.has(t)).reduce((a, t) => a + Math.log(1 + m / df(t)), 0) }));
  scores.sort((a, b) => b.score - a.score);
  return scores[0]?.score > 0 && (scores.length === 1 || scores[0].score > scores[1].score) ? scores[0].id : undefined;
}

/** At least four words, two of them real words, and not a line in capitals (a title). */
function isSentenceLike(text: string): boolean {
  const ws = words(text);
  if (ws.length < 4 || ws.filter((w) => /^\p{L}{3,}$/u.test(w)).length < 2) return false;
  const letters = text.replace(/[^\p{L}]/gu, '');
  return !(letters.length > 0 && letters === letters.toUpperCase() && ws.length < 8);
}

const quotable = (u: Unit | undefined): u is Unit => !!u && u.kind !== 'header' && u.kind !== 'question';
/**
 * Quotable as context: a row, a list item, a sentence or a line with a value the question does not
 * already hold ("BM20B(0.8)-34DP-0.4V(53)"); not a figure label or a title line ("SKR MINI",
 * "V2.0 pads" of a question about the SKR Mini E3 V2.0, "Abstract").
 */
function readableFor(question: string): (u: Unit | undefined) => u is Unit {
  const asked = new Set(valueTokens(question));
  return (u): u is Unit =>
    quotable(u) && (u.kind === 'row' || u.kind === 'item' || isSentenceLike(u.text) || valueTokens(u.text).some((t) => !asked.has(t)));
}
/** Tokens with a digit, lower-cased ("V2.0", "0x602A"). */
const valueTokens = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}.]+/u)
    .map((w) => w.replace(/^\.+|\.+$/g, ''))
    .filter((w) => /\d/.test(w));

/** A unit with what it needs to make sense, in reading order. */
function withContext(u: Unit, siblings: Unit[], procedural: boolean, isFirst: boolean, readable: (u: Unit | undefined) => u is Unit): Unit[] {
  const at = u.position;
  const before: Unit[] = [];
  const after: Unit[] = [];
  const prev = siblings[at - 1];
  if (readable(prev) && ANAPHORIC.test(u.text)) before.push(prev);
  // An FAQ answer opens with its most direct sentence ("It is because … (GPIO12)").
  const opening = u.answerStart !== undefined ? siblings[u.answerStart] : undefined;
  if (opening && opening !== u && opening !== prev && readable(opening) && opening.position < at) before.unshift(opening);
  const itemsFrom = (start: number, max: number) => {
    const items: Unit[] = [];
    for (let i = start; i < siblings.length && items.length < max && siblings[i].kind === 'item'; i++) items.push(siblings[i]);
    return items;
  };
  if (u.isIntro) {
    // "… as follows:" — the list it introduces (or, without one, the next two units).
    const items = itemsFrom(at + 1, 8);
    after.push(...(items.length ? items : siblings.slice(at + 1, at + 3).filter(readable)));
  } else if (procedural && u.kind === 'item') {
    // A step of a procedure: the whole run of steps, from its intro.
    let start = at;
    while (start > 0 && siblings[start - 1].kind === 'item') start--;
    if (start > 0 && siblings[start - 1].isIntro) before.push(siblings[start - 1]);
    before.push(...siblings.slice(start, at));
    after.push(...itemsFrom(at + 1, 9 - (at - start)));
  } else if (procedural) {
    // "How do I …": the steps that follow the explanation, if they follow closely.
    const start = siblings.findIndex((s, i) => i > at && i <= at + 4 && s.kind === 'item');
    if (start > 0) {
      if (siblings[start - 1].isIntro && start - 1 > at) after.push(siblings[start - 1]);
      after.push(...itemsFrom(start, 8));
    }
  } else if (isFirst && !u.hasValue) {
    // A topic sentence without the value: the values usually follow in the next units.
    for (let i = at + 1; i <= at + 2 && readable(siblings[i]) && siblings[i].hasValue; i++) after.push(siblings[i]);
  }
  return [...before, u, ...after];
}

function decline(question: string, evidence: AnswerEvidence, where?: string): ExtractiveAnswer {
  const text = declineSentence(question, where);
  return { text, parts: [text], refs: [], declined: true, coverage: evidence.coverage, evidence };
}

/** "The battery is 400 mAh." + 3 → "The battery is 400 mAh [3]." */
export function cite(sentence: string, ref: number): string {
  const trimmed = sentence.trim();
  const m = trimmed.match(/^(.*?)([.!?:;]*)$/s)!;
  // A list intro keeps its colon; anything else ends like a sentence.
  // One mark: "0x00 .." cut from a range must not read "0x00 [1].."
  const last = m[2].at(-1);
  const end = last === ':' ? ':' : last === '!' || last === '?' ? last : '.';
  return `${m[1].trimEnd()} [${ref}]${end}`;
}

function nearDuplicate(a: Set<string>, b: Set<string>): boolean {
  const shared = [...a].filter((t) => b.has(t)).length;
  return shared / Math.max(1, Math.min(a.size, b.size)) > 0.8;
}

interface Candidate {
  ref: number;
  sentence: string;
  position: number;
  hitRank: number;
  terms: string[];
}

/** Offline summary: the sentences most relevant to the question, cited, up to `maxWords` words. */
export function extractiveSummary(question: string, hits: RefHit[], maxWords: number): string {
  const candidates: Candidate[] = [];
  hits.forEach((h, hitRank) => {
    if (!h.text) return;
    splitSentences(h.text).forEach((sentence, position) => {
      const t = terms(sentence);
      if (t.length >= 2) candidates.push({ ref: h.ref, sentence, position, hitRank, terms: t });
    });
  });
  const scores = new Bm25Index(candidates.map((c) => c.terms)).scoreEach(terms(question));
  const order = candidates.map((c, i) => ({ c, score: scores[i] })).sort((a, b) => b.score - a.score || a.c.hitRank - b.c.hitRank);
  const out: string[] = [];
  let used = 0;
  for (const { c } of order) {
    const n = c.sentence.split(/\s+/).length;
    if (used + n > maxWords) {
      if (out.length === 0) out.push(cite(c.sentence.split(/\s+/).slice(0, maxWords).join(' '), c.ref));
      break;
    }
    out.push(cite(c.sentence, c.ref));
    used += n;
  }
  return out.join(' ');
}
