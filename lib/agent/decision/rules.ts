/**
 * The rules decider: the seed's selection matrix. Used offline (no LLM) and as the LLM decider's
 * fast path when it is confident. The first search is the fused hybrid search for every kind (see
 * SEARCH_ORDER); visual words → then the VLM on the best page it found (or the page search when
 * the evidence is weak); table words and anything else → then dense or page search if needed;
 * answer once the evidence covers the question.
 */
import type { AnyTool, QuestionKind, TreeData } from '../contract';
import { distinctTerms, words } from '@/lib/text/analyze';
import { passageCoverage } from '@/lib/text/coverage';
import { availableNames, type Decider, type Decision, type DecisionContext, type ToolOption } from './types';

export interface QuestionClass {
  kind: QuestionKind;
  /** The words that decided it, shown in the decision reason. */
  cues: string[];
  /** How sure the matrix is about the first search. */
  confidence: number;
}

const VISUAL_STRONG =
  /\b(diagrams?|schematics?|wiring|wired|pin-?outs?|figures?|fig\.?|photos?|photographs?|pictures?|drawings?|illustrations?|images?|silkscreen|board layout)\b/g;
const VISUAL_WEAK =
  /\b(connectors?|leds?|labels?|labell?ed|headers?|jumpers?|indicators?|symbols?|icons?|shown|colou?rs?|looks? like|terminal blocks?|plugs?|switch positions?|dip switch(?:es)?)\b/g;
const TABLE =
  /\b(error codes?|fault codes?|codes?|menus?|specs?|specifications?|pins?|tables?|parameters?|settings?|ratings?|variants?|part numbers?|registers?|alarms?|faults?|options?|modes?)\b/g;
const SHORT_FACTUAL_START = /^(what|what's|whats|which|who|when|where|how (much|many|big|long|heavy|fast|high|low)|is|are|does|do|can)\b/;
const SHORT_QUESTION_WORDS = 12;

/** Evidence covering this much of the question (see passageCoverage) is enough to answer. */
const ANSWER_COVERAGE = 0.6;

export function classifyQuestion(question: string): QuestionClass {
  const q = question.toLowerCase();
  const strong = [...q.matchAll(VISUAL_STRONG)].map((m) => m[0]);
  if (strong.length) return { kind: 'visual', cues: strong, confidence: 0.9 };
  const table = [...q.matchAll(TABLE)].map((m) => m[0]);
  const weak = [...q.matchAll(VISUAL_WEAK)].map((m) => m[0]);
  // "error code" or "pin" alongside "LED" reads as a lookup table more than a picture.
  if (table.length && table.length >= weak.length) return { kind: 'table', cues: table, confidence: 0.85 };
  if (weak.length) return { kind: 'visual', cues: weak, confidence: 0.75 };
  const n = words(question).length;
  if (n <= SHORT_QUESTION_WORDS && SHORT_FACTUAL_START.test(q.trim())) return { kind: 'factual', cues: [], confidence: 0.7 };
  return { kind: 'general', cues: [], confidence: 0.6 };
}

/**
 * The searches in the order the rules try them for a kind of question: each search tool states its
 * place per kind (Tool.searchOrder); ties keep the registry's order. The kind decides the second
 * search, when the first one's evidence is weak.
 */
function searchOrder(options: ToolOption[], kind: QuestionKind): string[] {
  return options
    .flatMap((o) => (o.tool.searchOrder ? [{ name: o.tool.name, place: o.tool.searchOrder[kind] }] : []))
    .sort((x, y) => x.place - y.place)
    .map((o) => o.name);
}

const KIND_REASON: Record<QuestionKind, string> = {
  visual: 'the answer is likely in a figure: the fused search includes the visual page leg',
  table: 'codes, pins and parameters match best by keyword, fused with the page search',
  factual: 'a short factual question: the fused keyword + vector + page search ranks best',
  general: 'an open question: hybrid search covers wording and meaning',
};

const FOLLOW_UP = /^(and|also|what about|how about|same for|what if)\b/i;

/**
 * The search query for the rules: the question, or for a terse follow-up ("and the fuse?") the
 * previous question plus this one, since the follow-up alone names too little to retrieve.
 */
function searchQuery(tree: TreeData): string {
  const previous = tree.history.findLast((turn) => turn.role === 'user')?.content.trim();
  if (!previous) return tree.question;
  const terse = distinctTerms(tree.question).length <= 2 || FOLLOW_UP.test(tree.question.trim());
  return terse ? `${previous} ${tree.question}` : tree.question;
}

/** Inputs the rules (and skills) use for a tool: the tool's own default input, else the schema's defaults. */
export function defaultInputFor(tool: AnyTool, tree: TreeData): Record<string, unknown> {
  return tool.defaultInput?.(tree, searchQuery(tree)) ?? {};
}

/** A search counts as tried once it returned a result or was taken out of the turn. */
const tried = (tree: TreeData, tool: string) => tree.environment.ran(tool) || tool in tree.removed;

export function decideByRules(ctx: DecisionContext): Decision {
  const { tree, options } = ctx;
  const available = new Set(availableNames(options));
  const cls = classifyQuestion(tree.question);
  const env = tree.environment;
  const byName = new Map(options.map((o) => [o.tool.name, o.tool]));
  const answer = options.find((o) => o.tool.end)?.tool.name ?? 'text_response';
  const reader = options.find((o) => o.tool.readsPages)?.tool.name;
  const pick = (tool: string, reason: string, confidence: number): Decision => {
    const chosen = byName.get(tool);
    return { tool, input: chosen ? defaultInputFor(chosen, tree) : {}, reason, decider: 'rules', confidence };
  };

  if (cls.kind === 'visual' && reader && available.has(reader) && !tried(tree, reader) && env.visualPages().length > 0) {
    const best = env.visualPages()[0];
    return pick(reader, `visual question (${cls.cues.join(', ')}): read page ${best.page} of the page search with the VLM`, 0.9);
  }

  // The VLM has read the page the page search ranked best: that is the evidence a visual question needs.
  if (reader && env.ran(reader) && available.has(answer)) {
    return pick(answer, 'the vision model has read the best page', 0.85);
  }

  const order = searchOrder(options, cls.kind);
  const nextSearch = order.find((t) => available.has(t) && !env.ran(t));
  const textHits = env.textHits();

  if (!env.isEmpty) {
    const coverage = passageCoverage(
      tree.question,
      textHits.map((h) => `${h.kind === 'chunk' ? h.heading : ''} ${h.text ?? ''}`),
    ).coverage;
    const searchesTried = order.filter((t) => tried(tree, t)).length;
    const covered = coverage >= ANSWER_COVERAGE;
    if ((covered || searchesTried >= 2 || !nextSearch) && available.has(answer)) {
      const why = covered
        ? `the evidence covers the question (coverage ${coverage.toFixed(2)})`
        : `${searchesTried} search(es) tried; answering with what was found (coverage ${coverage.toFixed(2)})`;
      return pick(answer, why, covered ? 0.9 : 0.7);
    }
    if (nextSearch) {
      return pick(nextSearch, `weak evidence so far (coverage ${coverage.toFixed(2)}): trying ${nextSearch}`, 0.55);
    }
  }

  if (nextSearch) {
    const lastError = tree.errors.findLast((e) => e.tool === nextSearch);
    if (lastError) return pick(nextSearch, `retrying ${nextSearch} once after: ${lastError.message}`, 0.6);
    const preferred = order[0];
    const fallbackNote = nextSearch === preferred ? '' : ` (${preferred} is not available)`;
    const cues = cls.cues.length ? ` (${[...new Set(cls.cues)].join(', ')})` : '';
    return pick(nextSearch, `${cls.kind} question${cues}: ${KIND_REASON[cls.kind]}${fallbackNote}`, nextSearch === preferred ? cls.confidence : 0.6);
  }

  if (available.has(answer)) return pick(answer, 'no further search can help: answering', 0.8);
  const any = [...available][0];
  return any ? pick(any, 'the only available tool', 0.3) : pick(answer, 'no tool is available: answering', 0.3);
}

export const rulesDecider: Decider = {
  kind: 'rules',
  decide: async (ctx) => decideByRules(ctx),
};
