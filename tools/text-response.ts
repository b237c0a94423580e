/**
 * text_response: the end tool. It gathers the turn's evidence and hands it to a writer in
 * lib/answer: with an LLM the streamed, cited answer of lib/answer/llm-writer.ts; without one (or if the
 * LLM fails) the extractive answer, which declines when the evidence is weak. It shapes what they
 * write into the reply: the form, the closest pages, and sources that carry what the viewer needs
 * to open the page and highlight the cited passage.
 */
import { z } from 'zod';
import { devicesNotReady, uncoveredVariants, unknownDevices } from '@/lib/answer/applicability';
import type { AnswerEvidence } from '@/lib/answer/decide';
import { clarifySentence, readDevices, shouldClarify, type ClarifyReading } from '@/lib/answer/clarify';
import { closestPages, distinctPages } from '@/lib/answer/closest-pages';
import { deviceKey, deviceProfiles, manualsOfKind, type DeviceProfile } from '@/lib/device/identity';
import { extractiveAnswer } from '@/lib/answer/extractive';
import { llmAnswerFails, llmReplyForm, writeWithLlm, type WriterEvidence } from '@/lib/answer/llm-writer';
import { bestRegionOnPage, readingBoxes, STRUCTURE_PAGES, type PageUnit, type StructuredReading } from '@/lib/answer/structured';
import { readQuestion, type Reading } from '@/lib/answer/select';
import { closestPagesSentence, namingManual, stillProcessingSentence } from '@/lib/answer/word';
import type { AnswerMode } from '@/lib/answer/form';
import { ofDevice, type RefHit } from '@/lib/answer/hits';
import type { TreeData } from '@/lib/agent/contract';
import { type AnswerMethod, type ClosestPage, type ProcessingManual, type Source, type Tool, type ToolContext } from '@/lib/agent/contract';

const inputs = z.object({
  include_sources: z.boolean().default(true).describe('attach the cited sources to the answer'),
});

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

/** The LLM writer's evidence: the turn's question and history, and what the environment holds of the pages it may read. */
function writerEvidence(t: TreeData, hits: readonly RefHit[], units: readonly PageUnit[]): WriterEvidence {
  return {
    question: t.question,
    history: t.history,
    hits,
    units,
    lookups: t.environment.modelLookups(),
    summary: t.environment.summaries.at(-1),
    citable: t.environment.citableTexts(),
    titles: t.environment.manualTitles(),
  };
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
    // The device the turn is about (named, picked or the chat's): the answer reads its pages only.
    const device = t.preferManualIds ?? t.manualIds;
    const readable = ofDevice(t.environment.textHits(), device);
    // The structure units of the best pages: the offline reader answers from one, an LLM reads them as grids and step lists.
    const units = await ctx.pageUnits(distinctPages(t.environment.textHits(), STRUCTURE_PAGES));
    const readableUnits = ofDevice(units, device);
    let text = '';
    let method: AnswerMethod = 'extractive';
    let fallbackReason: string | undefined;
    let streamed = false;
    let regenerated = false;
    const writerInput = writerEvidence(t, readable, readableUnits);
    if (llm) {
      const writing = yield* writeWithLlm(llm.model, writerInput, {
        signal: ctx.signal,
        recordUsage: (usage) => ctx.recordUsage(usage),
        onDelta: () => (streamed = true),
      });
      text = writing.text;
      regenerated = writing.regenerated;
      fallbackReason = writing.failure;
      if (writing.answered) method = 'llm';
    }
    let declined: boolean;
    let mode: AnswerMode;
    let coverage: number | undefined;
    let evidence: AnswerEvidence | undefined;
    let structure: StructuredReading | undefined;
    let reading: Reading | undefined;
    const failed =
      method === 'llm'
        ? llmAnswerFails(
            text,
            { ...writerInput, topicTerms: t.environment.topicTerms() },
            t.environment.sourcesFor(text).map((s) => s.manualId),
          )
        : undefined;
    if (failed) {
      // The check failed: no paragraph that reads like an answer, the closest pages instead.
      text = closestPagesSentence(t.question);
      declined = true;
      mode = 'pages';
      fallbackReason = `answer check: ${failed}`;
      yield { type: 'status', message: `The answer did not pass the check (${failed}); showing the closest pages` };
      yield { type: 'response', delta: text, reset: true };
    } else if (method === 'extractive') {
      const answer = extractiveAnswer(t.question, t.environment.textHits(), {
        units,
        // A question naming its device is read as before, its manual's passages first: a copy of
        // that manual under another title is no other device to the technician.
        ...(device && !t.deviceNamed ? { device } : {}),
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
      ({ declined, mode } = llmReplyForm(text, t.environment.modelLookups()));
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
