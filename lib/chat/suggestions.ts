/**
 * Offline question suggestions, no language model: example questions for the empty chat from the
 * ready manuals' section headings, and follow-ups after an answer from the headings its searches
 * retrieved and the kind of question asked. Deterministic, so a restored chat shows the same.
 */
import type { AgentEvent } from '@/lib/agent/events';
import { isStopword, stem, words } from '@/lib/text/analyze';
import { ERROR_CODE } from '@/lib/device/designations';
import { productName } from '@/lib/device/name';

export interface HeadingSeed {
  manualId: string;
  heading: string;
  /** The first few hundred characters under the heading. */
  text: string;
}

interface Template {
  id: string;
  match: RegExp;
  question: (ctx: { leaf: string; text: string; model: string }) => string;
}

/** Heading → question, most useful first. `id` keeps one question per kind of section. */
const TEMPLATES: Template[] = [
  {
    id: 'error',
    match: /error code|fault code|alarm code|error list|\berrors?\b/i,
    question: ({ text, model }) => {
      const code = text.match(ERROR_CODE)?.[0];
      return code ? `What does error ${code} mean on the ${model}?` : `What do the ${model} error codes mean?`;
    },
  },
  {
    id: 'spec',
    match: /specification|technical data|electrical data|ratings?\b/i,
    question: ({ text, model }) =>
      /supply voltage/i.test(text) ? `What supply voltage does the ${model} need?` : `What are the main technical specifications of the ${model}?`,
  },
  {
    id: 'wiring',
    match: /wiring|connection diagram|terminal|pin ?out|connector/i,
    question: ({ model }) => `How is the ${model} wired? Show me the wiring diagram.`,
  },
  {
    id: 'calibration',
    match: /calibrat/i,
    question: ({ leaf }) => {
      const what = leaf
        .replace(/\bcalibration\b/i, '')
        .trim()
        .toLowerCase();
      return what ? `How do I calibrate the ${what}?` : 'How do I run the calibration procedure?';
    },
  },
  {
    id: 'maintenance',
    match: /maintenance|service interval|schedule/i,
    question: ({ model }) => `What is the maintenance schedule for the ${model}?`,
  },
  {
    id: 'torque',
    match: /torque/i,
    question: () => 'What tightening torques does the manual specify?',
  },
  {
    id: 'troubleshooting',
    match: /troubleshoot|symptom|fault finding/i,
    question: ({ model }) => `How do I troubleshoot the ${model} when it does not work as expected?`,
  },
  {
    id: 'parts',
    match: /spare parts?|parts list|accessor/i,
    question: ({ model }) => `Which spare parts are listed for the ${model}, with part numbers?`,
  },
  {
    id: 'safety',
    match: /safety|warning/i,
    question: ({ model }) => `What safety precautions apply before working on the ${model}?`,
  },
  {
    id: 'installation',
    match: /install|mounting/i,
    question: ({ model }) => `How do I install the ${model}?`,
  },
];

/** "3 Electrical installation > 3.1 Wiring diagram" → "Wiring diagram" (numbering and tables dropped). */
export function headingLeaf(heading: string): string {
  const leaf = heading.split('>').at(-1) ?? heading;
  return leaf
    .replace(/^\s*(table|figure|fig\.)\s+[\d.-]+\s*/i, '')
    .replace(/^\s*[\d.]+\s+/, '')
    .trim();
}

/** Up to `max` example questions across the ready manuals (round-robin, one per section kind). */
export function exampleQuestions(manuals: Array<{ id: string; title: string }>, seeds: HeadingSeed[], max = 4): string[] {
  const perManual = manuals.map((m) => {
    const own = seeds.filter((s) => s.manualId === m.id);
    const model = productName(
      m.title,
      own
        .map((s) => s.text)
        .join(' ')
        .slice(0, 4000),
    );
    const out: Array<{ id: string; question: string }> = [];
    for (const t of TEMPLATES) {
      const matching = own.filter((s) => t.match.test(headingLeaf(s.heading)) || t.match.test(s.heading));
      // An error-code section whose text shows a code makes the most concrete example.
      const seed = (t.id === 'error' ? matching.find((s) => ERROR_CODE.test(s.text)) : undefined) ?? matching[0];
      if (seed) out.push({ id: t.id, question: t.question({ leaf: headingLeaf(seed.heading), text: seed.text, model }) });
    }
    if (!out.length) out.push({ id: 'overview', question: `What is covered in ${m.title}?` });
    return out;
  });
  const questions: string[] = [];
  const usedKinds = new Set<string>();
  for (let round = 0; questions.length < max && perManual.some((l) => l.length > round); round++) {
    for (const list of perManual) {
      const item = list[round];
      if (!item || questions.length >= max) continue;
      // With several manuals, spread the kinds; a single manual may repeat none anyway.
      if (manuals.length > 1 && usedKinds.has(item.id) && round === 0) continue;
      usedKinds.add(item.id);
      if (!questions.includes(item.question)) questions.push(item.question);
    }
  }
  return questions.slice(0, max);
}

/** A question's words (lib/text's tokenizer), for spotting the same question twice. */
const normalize = (q: string) => words(q).join(' ');

// Words of the question templates that say nothing about the topic (the stop-word list has the rest).
const FILLER = new Set(['show', 'need', 'say', 'manual'].map(stem));
/** Content words, stemmed so "tightening" and "tighten" match. */
const contentWords = (q: string) =>
  words(q)
    .filter((w) => w.length > 1 && !isStopword(w))
    .map(stem)
    .filter((w) => !FILLER.has(w));

/** True when most of the suggestion's words are already in an asked question (a near-repeat). */
function nearRepeat(suggestion: string, asked: string[]): boolean {
  const words = contentWords(suggestion);
  if (!words.length) return true;
  return asked.some((q) => {
    const have = new Set(contentWords(q));
    return words.filter((w) => have.has(w)).length / words.length >= 0.6;
  });
}

/** Two or three follow-up questions for an answered turn. */
export function followUps(question: string, events: AgentEvent[], asked: string[] = [], max = 3): string[] {
  const out: string[] = [];
  const seen = new Set([question, ...asked].map(normalize));
  const add = (q: string) => {
    if (out.length < max && !seen.has(normalize(q)) && !nearRepeat(q, [question, ...asked])) {
      seen.add(normalize(q));
      out.push(q);
    }
  };

  // By the kind of question, only where the question itself grounds the suggestion (an error code).
  const code = question.match(ERROR_CODE)?.[0];
  if (code) {
    add(`What should I check first to clear ${code}?`);
    if (!/wir|connector|terminal/i.test(question)) add(`Which part of the wiring is involved in ${code}?`);
  } else if (/^(what|which)\b/i.test(question.trim()) && /voltage|current|power|pressure|temperature|spec|rating|weight|dimension/i.test(question)) {
    add('What are the other electrical specifications?');
  }

  // From the sections near the answer: the pages it cites first, then the best-ranked passages.
  // Passages only (page scores use another scale), and only those close to the best one.
  const cited = new Set(events.flatMap((e) => (e.type === 'response' ? e.sources.map((s) => `${s.manualId}:${s.page}`) : [])));
  const passages = events.flatMap((e) => (e.type === 'result' ? e.hits : [])).filter((h) => h.kind === 'chunk');
  const best = Math.max(0, ...passages.map((h) => h.score));
  const near = (h: (typeof passages)[number]) => (cited.has(`${h.manualId}:${h.page}`) ? 1 : 0);
  const hits = passages.filter((h) => near(h) || h.score >= best * 0.4).sort((a, b) => near(b) - near(a) || b.score - a.score);
  const questionTerms = new Set(contentWords(question));
  const model = productName(hits.find((h) => h.manualTitle)?.manualTitle ?? '', hits.map((h) => h.text ?? '').join(' '));
  for (const hit of hits) {
    if (!hit.heading) continue;
    const leaf = headingLeaf(hit.heading);
    const leafTerms = contentWords(leaf).filter((w) => w.length > 3);
    if (leafTerms.length && leafTerms.every((w) => questionTerms.has(w))) continue;
    const template = TEMPLATES.find((t) => t.match.test(leaf));
    const q = template ? template.question({ leaf, text: hit.text ?? '', model }) : headingQuestion(leaf);
    if (q) add(q);
    if (out.length >= max) break;
  }
  return out.slice(0, max);
}

/** Headings that name no topic a technician would ask about. */
const GENERIC_HEADING =
  /^(notes?|cautions?|warnings?|danger|notice|important|attention|tips?|remarks?|hints?|contents|table of contents|index|appendix(?: [a-z0-9]+)?|preface|foreword|general|overview|introduction|description|continued|(?:figure|fig\.|table)s?(?: [\d.-]+)?|chapter \d+|section \d+|page \d+|about this (?:manual|guide|document)|document title|untitled)$/i;

/** Verbs a task heading starts with ("Set the LAN Parameters", "Setting the clock"), as "How do I …?" takes them. */
const TASK_VERBS = [
  'set',
  'configure',
  'connect',
  'disconnect',
  'install',
  'uninstall',
  'replace',
  'remove',
  'check',
  'adjust',
  'clean',
  'calibrate',
  'enable',
  'disable',
  'change',
  'select',
  'use',
  'update',
  'upgrade',
  'reset',
  'restore',
  'save',
  'load',
  'turn',
  'switch',
  'measure',
  'mount',
  'open',
  'close',
  'start',
  'stop',
  'run',
  'create',
  'delete',
  'edit',
  'view',
  'read',
  'operate',
  'program',
  'test',
  'assemble',
  'disassemble',
  'lubricate',
  'inspect',
  'store',
  'transport',
  'unpack',
  'power',
  'wire',
  'zero',
  'fill',
  'drain',
  'tighten',
  'align',
];
const VERB_BY_STEM = new Map(TASK_VERBS.map((v) => [stem(v), v]));
/** The task verb a heading's first word is, as written or in its -ing form ("Setting" → set; not "Settings"). */
const taskVerb = (word: string) => (TASK_VERBS.includes(word) || word.endsWith('ing') ? VERB_BY_STEM.get(stem(word)) : undefined);

/** "Output Voltage Range" → "output voltage range"; acronyms and model names keep their case. */
function sentenceCase(words: string[]): string {
  return words.map((w) => (/^[A-Z][a-z]+$/.test(w) ? w.toLowerCase() : w)).join(' ');
}

/**
 * A well-formed question about a section, or null when its heading does not make one: a task
 * heading ("To Set the LAN Parameters") asks how; a topic heading ("Output voltage range") asks
 * what the manual says; fragments, generic labels ("Note"), numbers and sentences give none.
 */
export function headingQuestion(leaf: string): string | null {
  const clean = leaf
    .replace(/[\s:]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (clean.length < 4 || clean.length > 60 || GENERIC_HEADING.test(clean)) return null;
  // A heading starts with a capital letter or a digit-free acronym; lower case means a cut sentence.
  if (!/^[A-Z]/.test(clean) || /[.;,!?]$/.test(clean) || /[|=<>{}[\]]/.test(clean)) return null;
  let words = clean.split(' ');
  if (words.length > 8 || !words.some((w) => /^[A-Za-z]{3,}$/.test(w))) return null;
  if (/^to$/i.test(words[0])) words = words.slice(1);
  const verb = taskVerb(words[0]?.toLowerCase() ?? '');
  if (verb) {
    if (words.length < 2) return null;
    return `How do I ${verb} ${sentenceCase(words.slice(1))}?`;
  }
  if (words.length === 1 && !/[A-Z].*\d|\d.*[A-Z]/.test(words[0]) && words[0].length < 5) return null;
  return `What does the manual say about ${sentenceCase(words)}?`;
}
