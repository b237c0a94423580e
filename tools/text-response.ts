/**
 * text_response: the end tool. With an LLM it streams a grounded answer that cites the
 * environment's [n] references; without one (or if the LLM fails) it answers extractively from
 * the best sentences, and declines with "The manuals do not say …" when the evidence is weak.
 * Sources carry what the viewer needs to open the page and highlight the cited passage.
 */
import { streamText, type LanguageModel } from 'ai';
import { z } from 'zod';
import { devicesNotReady, uncoveredVariants, unknownDevices } from '@/lib/answer/applicability';
import type { AnswerEvidence } from '@/lib/answer/decide';
import { clarifySentence, readDevices, shouldClarify, type ClarifyReading } from '@/lib/answer/clarify';
import { closestPages, distinctPages } from '@/lib/answer/closest-pages';
import { deviceKey, deviceProfiles, manualsOfKind, type DeviceProfile } from '@/lib/device/identity';
import { extractiveAnswer } from '@/lib/answer/extractive';
import { bestRegionOnPage, readingBoxes, STRUCTURE_PAGES, unitsForPrompt, type PageUnit, type StructuredReading } from '@/lib/answer/structured';
import { readQuestion, type Reading } from '@/lib/answer/select';
import { closestPagesSentence, stillProcessingSentence } from '@/lib/answer/word';
import type { AnswerMode } from '@/lib/answer/form';
import { ofDevice, type RefHit } from '@/lib/answer/hits';
import { checkValues, type AnswerValue } from '@/lib/answer/values';
import { formatHit } from '@/lib/agent/environment';
import { truncate } from '@/lib/text/format';
import type { TreeData } from '@/lib/agent/contract';
import { type AnswerMethod, type ClosestPage, type ProcessingManual, type Source, type Tool, type ToolContext, type ToolOutput } from '@/lib/agent/contract';

/** Evidence shown to the LLM (~15k tokens); the best-ranked passages come first. */
const MAX_EVIDENCE_CHARS = 60_000;

const inputs = z.object({
  include_sources: z.boolean().default(true).describe('attach the cited sources to the answer'),
});

const DECLINED = /^\s*the manuals? do(es)? not (say|mention|cover|contain|specify)/i;

// The answer contract: copy values, cite every claim, say when the manuals do not cover
// it, name the device. The value lock checks the first rule after the answer is written.
const SYSTEM = `You answer a technician's question using only the numbered manual sources provided.
- Cite every factual sentence with its source number in square brackets right after the claim, e.g. "The fuse is rated 2 A [3]."
- Copy values, units, part numbers, pin names, codes and settings exactly as the cited source writes them; never compute, convert or round them. Use numbered steps for procedures.
- Each source line starts with its manual's title. If the question names a device and the sources are about another device, say so in the first sentence.
- If the sources do not contain the answer, reply with one sentence starting "The manuals do not say" that names what is missing. Never guess or use outside knowledge.
- Be concise.`;

function answerPrompt(t: TreeData, units: readonly PageUnit[], finding?: string): string {
  const lines = [`Question: ${t.question}`];
  const history = t.history.slice(-4);
  if (history.length) {
    lines.push('', 'Earlier in this conversation:');
    for (const turn of history) lines.push(`${turn.role}: ${truncate(turn.content.replace(/\s+/g, ' '), 400)}`);
  }
  lines.push('', 'Sources:');
  let used = 0;
  for (const hit of t.environment.textHits()) {
    const line = formatHit(hit, 4000);
    if (used + line.length > MAX_EVIDENCE_CHARS) break;
    lines.push(line);
    used += line.length;
  }
  if (used === 0) lines.push('(no sources were found)');
  const hits = t.environment.textHits();
  const structures = unitsForPrompt(units, (manualId, page) => hits.find((h) => h.manualId === manualId && h.page === page)?.ref);
  if (structures.length) lines.push('', 'Tables, procedures and values on the best pages, as printed (cite their source number):', ...structures);
  const lookups = t.environment.modelLookups();
  const unknown = unknownDevices(lookups);
  if (unknown.length) lines.push('', `Note: no manual in the library mentions ${unknown.join(' or ')}.`);
  for (const { asked, listed } of uncoveredVariants(lookups))
    lines.push('', `Note: the manuals list ${listed.join(', ')} but never ${asked}; say that they do not cover ${asked}.`);
  for (const { device, percent } of devicesNotReady(lookups))
    lines.push(
      '',
      `Note: the manual of the ${device} is still processing${percent !== undefined ? ` (${percent} %)` : ''} and cannot be searched yet; say so.`,
    );
  const summary = t.environment.summaries.at(-1);
  if (summary) lines.push('', `Summary of the sources: ${summary}`);
  if (finding) lines.push('', finding);
  return lines.join('\n');
}

async function* llmAnswer(
  t: TreeData,
  ctx: ToolContext,
  model: LanguageModel,
  units: readonly PageUnit[],
  onDelta: () => void,
  finding?: string,
): AsyncGenerator<ToolOutput, string> {
  // Errors arrive as 'error' parts below and are handled there; the default handler would only log them.
  const result = streamText({ model, system: SYSTEM, prompt: answerPrompt(t, units, finding), abortSignal: ctx.signal, maxRetries: 0, onError: () => {} });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      // A rewrite replaces what the UI already shows.
      const reset = finding !== undefined && text === '';
      text += part.text;
      onDelta();
      yield { type: 'response', delta: part.text, ...(reset ? { reset: true } : {}) };
    } else if (part.type === 'error') {
      throw part.error instanceof Error ? part.error : new Error(String(part.error));
    } else if (part.type === 'finish') {
      ctx.recordUsage(part.totalUsage);
    }
  }
  return text.trim();
}

/** An LLM's reply that declines: not covered when the searches found the asked device or variant uncovered, else the pages. */
function llmDeclineMode(t: TreeData): AnswerMode {
  const lookups = t.environment.modelLookups();
  return unknownDevices(lookups).length || uncoveredVariants(lookups).length || devicesNotReady(lookups).length ? 'not_covered' : 'pages';
}

function valueFinding(unverified: AnswerValue[]): string {
  const lines = unverified.map((u) => `- "${u.value}" (cited ${u.refs.length ? u.refs.map((r) => `[${r}]`).join(', ') : 'nothing'})`);
  return [
    'Your previous answer stated values that do not appear in the sources it cites:',
    ...lines,
    'Write the answer again. Copy every value exactly from the source you cite, cite the source that contains it, and leave out any value the sources do not give.',
  ].join('\n');
}

/**
 * The answer check on an LLM's answer: a value no cited passage holds even after the
 * rewrite, or an answer citing only other manuals than the one whose device the question names,
 * is not stated. Returns why, or undefined when the answer holds.
 */
function failedCheck(t: TreeData, text: string): string | undefined {
  const unverified = checkValues(text, t.environment.citableTexts(), t.environment.manualTitles()).unverified;
  if (unverified.length) return `${[...new Set(unverified.map((u) => u.value))].join(', ')}: not in the cited sources after a rewrite`;
  const named = readQuestion(t.question, t.environment.textHits(), t.environment.topicTerms())?.named;
  const cited = new Set(t.environment.sourcesFor(text).map((s) => s.manualId));
  if (named && cited.size && !cited.has(named)) return 'the answer cites only other manuals than the one of the device the question names';
  return undefined;
}

/**
 * Manuals the reply draws on or the turn is scoped to that are still processing, with searchable
 * pages (progressive availability): the answer may miss what their later pages say.
 */
async function processingManuals(t: TreeData, ctx: ToolContext, sources: readonly Source[], pages: readonly ClosestPage[]): Promise<ProcessingManual[]> {
  const drawnOn = new Set([...(t.manualIds ?? []), ...sources.map((s) => s.manualId), ...pages.map((p) => p.manualId)]);
  if (drawnOn.size === 0) return [];
  const pending = await ctx.pendingManuals().catch(() => []);
  return pending
    .filter((m) => m.id && drawnOn.has(m.id) && (m.searchablePages ?? 0) > 0)
    .map((m) => ({
      manualId: m.id!,
      title: m.title,
      searchablePages: m.searchablePages!,
      pageCount: m.pageCount ?? null,
      figureLabels: m.figureLabels ?? null,
    }));
}

/** "[3] [7]": the refs of the shown pages' snippets, so `sources` can list those pages. */
function pageRefs(hits: readonly RefHit[], pages: readonly ClosestPage[]): string {
  return pages
    .map((p) => hits.find((h) => h.manualId === p.manualId && h.page === p.page)?.ref)
    .filter((r) => r !== undefined)
    .map((r) => `[${r}]`)
    .join(' ');
}

/**
 * How the closest pages split over devices, when the turn has no device and the library holds
 * several (TreeData.openDevice); undefined otherwise. Names and kinds come from the device profiles.
 */
function deviceReading(t: TreeData, profiles: ReadonlyMap<string, DeviceProfile> = new Map()): ClarifyReading | undefined {
  if (!t.openDevice) return undefined;
  const among = t.openDevice.among;
  const hits = among?.length ? t.environment.textHits().filter((h) => among.includes(h.manualId)) : t.environment.textHits();
  const titles = new Map(hits.map((h) => [h.manualId, h.manualTitle ?? h.manualId]));
  const reading = readDevices(hits, (id) => profiles.get(id)?.name ?? titles.get(id) ?? id, manualsOfKind(t.question, profiles));
  return reading.choices.length ? reading : undefined;
}

/**
 * A stated answer in a library of several devices names its manual first ("HX-200 controller:
 * …"), unless its first words already do. `name` is the cited manual's device name.
 */
function namingManual(text: string, name: string | undefined): string {
  if (!name || !text.trim()) return text;
  const head = text.slice(0, Math.max(80, name.length + 20)).toLowerCase();
  return head.includes(name.toLowerCase()) ? text : `${name}: ${text}`;
}

export const textResponse: Tool<z.output<typeof inputs>> = {
  name: 'text_response',
  display: { label: 'Writing the answer', icon: 'file', done: 'Wrote the answer', running: 'Writing the answer…', noun: 'Writing the answer' },
  description: 'Writes the final answer with [n] citations from the environment. Ends the turn.',
  status: 'Writing the answer…',
  inputs,
  end: true,
  timeoutMs: 120_000,
  async availability(t) {
    if (!t.environment.isEmpty || t.iteration >= 1) return { ok: true };
    return { ok: false, reason: 'nothing retrieved yet: search first' };
  },
  async *run(t, input, ctx) {
    // "Which device?" before any answer is written: no device set, and no clear margin between devices.
    const index = t.library ?? (await ctx.libraryIndex().catch(() => null));
    const profiles = index ? deviceProfiles(index) : undefined;
    const severalDevices = !!index && new Set(index.manuals.map(deviceKey)).size > 1;
    /** The device name a stated answer citing `ref` first opens with, in a library of several devices. */
    const nameFor = (ref: number | undefined) => {
      const id = ref === undefined ? undefined : t.environment.hit(ref)?.manualId;
      return severalDevices && id ? (profiles?.get(id)?.name ?? t.environment.hit(ref!)?.manualTitle) : undefined;
    };
    const devices = deviceReading(t, profiles);
    if (devices && shouldClarify(devices, ctx.policies.clarify)) {
      const text = clarifySentence(devices);
      yield { type: 'response', delta: text };
      yield {
        type: 'response',
        text,
        sources: [],
        declined: false,
        mode: 'clarify',
        choices: devices.choices,
        pages: devices.pages,
        deviceShare: devices.topShare,
      };
      return;
    }
    const llm = await ctx.llm();
    // The structure units of the best pages: the offline reader answers from one, an LLM reads them as grids and step lists.
    // The device the turn is about (named, picked or the chat's): the answer reads its pages only.
    const device = t.preferManualIds ?? t.manualIds;
    const readable = ofDevice(t.environment.textHits(), device);
    const units = await ctx.pageUnits(distinctPages(readable.length ? readable : t.environment.textHits(), STRUCTURE_PAGES));
    let text = '';
    let method: AnswerMethod = 'extractive';
    let fallbackReason: string | undefined;
    let streamed = false;
    let regenerated = false;
    if (llm) {
      try {
        text = yield* llmAnswer(t, ctx, llm.model, units, () => (streamed = true));
        if (!text) throw new Error('the model returned an empty answer');
        method = 'llm';
        // Value lock: a value no cited passage contains gets one rewrite with the finding; an
        // answer still failing it is not stated (failedCheck, below).
        const unverified = DECLINED.test(text) ? [] : checkValues(text, t.environment.citableTexts(), t.environment.manualTitles()).unverified;
        if (unverified.length) {
          const listed = [...new Set(unverified.map((u) => u.value))].join(', ');
          yield { type: 'status', message: `${listed}: not in the cited sources; asking the model to correct the answer` };
          const rewrite = yield* llmAnswer(t, ctx, llm.model, units, () => (streamed = true), valueFinding(unverified));
          if (rewrite) {
            text = rewrite;
            regenerated = true;
          }
        }
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        fallbackReason = err instanceof Error ? err.message : String(err);
        yield { type: 'status', message: 'The language model failed; answering from the passages directly' };
      }
    }
    let declined: boolean;
    let mode: AnswerMode;
    let coverage: number | undefined;
    let evidence: AnswerEvidence | undefined;
    let structure: StructuredReading | undefined;
    let reading: Reading | undefined;
    const failed = method === 'llm' && !DECLINED.test(text) ? failedCheck(t, text) : undefined;
    if (failed) {
      // The check failed: no paragraph that reads like an answer, the closest pages instead.
      text = closestPagesSentence(t.question);
      declined = true;
      mode = 'pages';
      fallbackReason = `answer check: ${failed}`;
      yield { type: 'status', message: `The answer did not pass the check (${failed}); showing the closest pages` };
      yield { type: 'response', delta: text, reset: true };
    } else if (method === 'extractive') {
      const answer = extractiveAnswer(t.question, readable, {
        units: ofDevice(units, device),
        formPolicy: ctx.policies.form,
        topicTerms: t.environment.topicTerms(),
        unknownDevices: unknownDevices(t.environment.modelLookups()),
        uncoveredVariants: uncoveredVariants(t.environment.modelLookups()),
        notReady: devicesNotReady(t.environment.modelLookups()),
      });
      if (answer.mode === 'answer' && answer.parts.length) {
        const named = namingManual(answer.parts[0], nameFor(answer.refs[0]));
        answer.text = answer.text.replace(answer.parts[0], named);
        answer.parts[0] = named;
      }
      text = answer.text;
      declined = answer.declined;
      mode = answer.mode;
      evidence = answer.evidence;
      structure = answer.structure;
      reading = answer.reading;
      coverage = Math.round(answer.coverage * 1000) / 1000;
      // Stream sentence by sentence so the UI behaves the same with and without an LLM.
      for (const [i, sentence] of answer.parts.entries()) {
        // After a failed LLM stream the UI must drop the half answer it already shows.
        yield { type: 'response', delta: i === 0 ? sentence : ` ${sentence}`, ...(i === 0 && streamed ? { reset: true } : {}) };
      }
    } else {
      declined = DECLINED.test(text);
      mode = declined ? llmDeclineMode(t) : 'answer';
      if (!declined) text = namingManual(text, nameFor(t.environment.sourcesFor(text)[0]?.ref));
    }
    const pages = mode === 'answer' ? [] : withRegions(t, closestPages(t.environment.textHits(), undefined, device), units, reading);
    // Sources list what an answer cites, or the pages shown instead of one.
    const cited = !input.include_sources
      ? []
      : !declined
        ? t.environment.sourcesFor(text)
        : mode === 'pages'
          ? t.environment.sourcesFor(pageRefs(t.environment.textHits(), pages))
          : [];
    // A reading of a structure unit (stated, or a scanned one shown as where to look) highlights the unit and its value, not the passage's lines.
    const sources = structure ? cited.map((s) => (s.ref === structure.ref ? { ...s, bboxes: readingBoxes(structure, s.page) } : s)) : cited;
    // Said after the answer, in the answer's voice: the manual it comes from is not complete yet.
    const processing = await processingManuals(t, ctx, sources, pages);
    if (processing.length) {
      const note = stillProcessingSentence(processing);
      yield { type: 'response', delta: ` ${note}` };
      text = `${text} ${note}`;
    }
    yield {
      type: 'response',
      text,
      sources,
      declined,
      mode,
      ...(pages.length ? { pages } : {}),
      ...(processing.length ? { processing } : {}),
      ...(devices ? { deviceShare: devices.topShare } : {}),
      method,
      ...(fallbackReason ? { fallbackReason } : {}),
      ...(evidence ? { evidence } : {}),
      ...(coverage !== undefined ? { metadata: { coverage } } : regenerated ? { metadata: { regenerated } } : {}),
    };
  },
};

/** Each closest page with the region of its unit that covers most of the question (read here when the writer did not). */
function withRegions(t: TreeData, pages: ClosestPage[], units: readonly PageUnit[], read?: Reading): ClosestPage[] {
  const reading = units.length ? (read ?? readQuestion(t.question, t.environment.textHits(), t.environment.topicTerms())) : undefined;
  if (!reading) return pages;
  return pages.map((p) => {
    const region = bestRegionOnPage(reading, units, p.manualId, p.page);
    return region ? { ...p, region: { bbox: region.bbox, kind: region.kind } } : p;
  });
}
