/**
 * The eval run: ingest the manuals into a DATA_DIR (scratch or reused), run every question
 * through every strategy, score, report. Used by scripts/eval.ts; everything it prints goes
 * through `log` (stderr), so the caller owns stdout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BaselineIndex } from './baseline';
import { ingestFiles, listPdfs, type IngestedFile, type Log } from './ingest';
import { agentSetup, applyLlmMode, type LlmMode } from './llm-mode';
import type { PageRef } from './metrics';
import { inAskingOrder, isAnswerable, readQa, readReferenceAnswers, referenceOf, type QaItem } from './qa';
import type { NamedDevicePolicy, TurnPolicies } from '../agent';
import { namedDevice } from '../ranking/named-device';
import { foldKeys, foldModels, trainAll, trainingRow, type CvScheme, type TrainingRow } from './cv';
import { chooseFormPolicy, formCurve, formFolds, NEVER_WITHHOLD, type FormSample } from './form-cv';
import type { FormPolicy } from '../answer/form';
import { keywordHit, firstRelevantRank, wrongDeviceAt1 } from './metrics';
import { clarifyReport, type ClarifyOutcome, type ClarifySample } from './clarify-cv';
import { libraryIndex } from '../ranking/library-cache';
import { modelJson, type LinearModel } from '../ranking/model';
import { buildReport, cvName, LEARNED_STRATEGIES, type EvalReport, type FormsReport, type QuestionResult, type StrategyName } from './report';
import { scoreQuestion } from './score';
import { checkValueRegions } from './evidence-check';
import { manualSourcePath } from '../ingest/paths';
import { rankerInput, STRATEGY_FNS, type EvalChat, type StrategyContext, type StrategyOutput } from './strategies';
import { unnamedVariants } from './unnamed';

/** Where --train writes the shipped ranker weights and form policy. */
const WEIGHTS_FILE = path.join(process.cwd(), 'lib', 'ranking', 'weights.json');
const FORM_FILE = path.join(process.cwd(), 'lib', 'answer', 'form.json');
const CLARIFY_FILE = path.join(process.cwd(), 'lib', 'answer', 'clarify.json');
/** Reference answers, by id, of the question sets that are not ours to edit (the shared sets). */
const REFERENCES_FILE = path.join(process.cwd(), 'eval', 'reference-answers.jsonl');

/** "…/dev2-qa.jsonl" → "dev2": the question set a question came from. */
const setName = (file: string) => path.basename(file).replace(/(-qa)?\.jsonl?$/i, '');

export interface EvalOptions {
  /** Question files; their questions are pooled (ids must not clash). */
  qa: string[];
  /** Folders of PDFs; every one is ingested into one library. */
  manuals: string[];
  /** Also run the learned strategies under cross-validation. */
  cv?: boolean;
  /** The folds of --cv: one per manual (default) or per question set (lib/eval/cv.ts). */
  cvScheme?: CvScheme;
  /** Train the page ranker on every answerable question and write lib/ranking/weights.json. */
  train?: boolean;
  k: number;
  strategies: StrategyName[];
  limit?: number;
  /** Only the questions about this manual (file name, with or without .pdf). */
  manual?: string;
  /** Reuse (and fill) this DATA_DIR; default: a scratch folder removed at the end. */
  dataDir?: string;
  /** What the agent does with a device the question names (lib/agent/device-context.ts); default 'first'. */
  namedDevice?: NamedDevicePolicy;
  /** Also ask every single-turn question that names its own device without its device's name (lib/eval/unnamed.ts). */
  unnamed?: boolean;
  llm: LlmMode;
  log: Log;
}

/** Depth of the untimed second search that tells how far a missed page was. */
const DIAGNOSTIC_DEPTH = 50;

export function selectQuestions(all: QaItem[], opts: Pick<EvalOptions, 'manual' | 'limit'>): QaItem[] {
  let qs = all;
  if (opts.manual) {
    const want = opts.manual.toLowerCase().replace(/\.pdf$/, '');
    qs = qs.filter((q) => q.manual.toLowerCase().replace(/\.pdf$/, '') === want);
  }
  return opts.limit !== undefined ? qs.slice(0, opts.limit) : qs;
}

export async function runEval(opts: EvalOptions): Promise<EvalReport> {
  const log = opts.log;
  const scratch = !opts.dataDir;
  const dataDir = path.resolve(opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mc-eval-')));
  fs.mkdirSync(dataDir, { recursive: true });
  // Before anything reads the configuration (it is re-read when the environment changes anyway).
  process.env.DATA_DIR = dataDir;
  applyLlmMode(opts.llm);

  // Imported after the environment is set: these modules read the configuration.
  const { closeDb } = await import('../store/db');
  const { closeVectorStores } = await import('../providers/vectorstore');
  const { closeEmbeddings, recommendedHybridAlpha } = await import('../providers/embeddings');
  const { shutdownOcrEngine } = await import('../ingest/pipeline');
  const { getEmbedder, getMultiVectorEmbedder, getVectorStore } = await import('../providers');
  const { listManuals, listPages } = await import('../store/manuals');

  try {
    const setOf = new Map<string, string>();
    const all = opts.qa.flatMap((f) => {
      const qs = readQa(f);
      for (const q of qs) setOf.set(q.id, setName(f));
      return qs;
    });
    // A multi-turn session's turns are asked in order, as one chat.
    const selected = inAskingOrder(selectQuestions(all, opts));
    const references = readReferenceAnswers(REFERENCES_FILE);
    if (selected.length === 0) throw new Error(`no questions selected from ${opts.qa.join(', ')}${opts.manual ? ` for manual ${opts.manual}` : ''}`);
    const files = opts.manuals.flatMap((d) => listPdfs(d));
    if (files.length === 0) throw new Error(`no PDF files in ${opts.manuals.join(', ')}`);

    log(`data dir: ${dataDir}${scratch ? ' (scratch; pass --data-dir DIR to keep and reuse it)' : ''}`);
    const tIngest = performance.now();
    const ingested: IngestedFile[] = await ingestFiles(files, log);
    const ingestMs = Math.round(performance.now() - tIngest);
    const failed = ingested.filter((f) => f.status === 'failed');
    if (failed.length) log(`warning: ${failed.length} manual(s) failed to ingest: ${failed.map((f) => `${f.file} (${f.error})`).join('; ')}`);

    const manualIdOf = new Map(ingested.filter((f) => f.manualId && f.status === 'ready').map((f) => [f.file, f.manualId!]));
    // --unnamed: each question naming its own device is asked a second time without its name.
    const variants = opts.unnamed ? unnamedVariants(selected, await libraryIndex(), (q) => manualIdOf.get(q.manual), (q) => referenceOf(q, references)) : undefined;
    const questions = variants ? variants.questions : selected;
    if (variants) {
      for (const [id, of] of variants.unnamedOf) setOf.set(id, setOf.get(of)!);
      log(`unnamed: ${variants.unnamedOf.size} questions asked again without their device's name${variants.stillNamed.length ? `; still naming it: ${variants.stillNamed.join(', ')}` : ''}`);
    }
    const scorable = questions.filter(isAnswerable);
    log(`reference answers: ${scorable.filter((q) => referenceOf(q, references)).length} of ${scorable.length} answerable questions (ROUGE-L)`);
    const foldOf = foldKeys(questions.map((q) => ({ ...q, set: setOf.get(q.id)! })), opts.cvScheme ?? 'manual');
    for (const q of questions) if (!manualIdOf.has(q.manual)) log(`warning: ${q.id}: manual ${q.manual} is not in the library; its retrieval counts as a miss`);

    // Retrieval is over the whole library: every ready manual, including any already in a reused DATA_DIR.
    const library = await listManuals();
    const ready = library.filter((m) => m.status === 'ready');
    const nameOf = (() => {
      const names = new Map(library.map((m) => [m.id, m.fileName]));
      return (id: string) => names.get(id) ?? id;
    })();

    // Searched as a settled library, as a technician's is: rows just ingested are folded into the
    // vector indexes first. Searching before the store's idle optimize had run gave the learned
    // ranker other candidates than every later run on the same library (docs/eval.md).
    const store = await getVectorStore();
    await store.optimize?.();
    const ctx: StrategyContext = {
      store,
      embedder: await getEmbedder(),
      multiVector: await getMultiVectorEmbedder(),
      alpha: 0,
      baseline: new BaselineIndex<PageRef>([]),
      manualIds: ready.map((m) => m.id),
    };
    ctx.alpha = recommendedHybridAlpha(ctx.embedder);
    if (opts.strategies.includes('baseline')) {
      const docs = [];
      for (const m of ready) for (const p of await listPages(m.id)) docs.push({ key: { manualId: m.id, page: p.number }, text: p.text });
      ctx.baseline = new BaselineIndex(docs);
      log(`baseline: BM25 over ${docs.length} pages of ${ready.length} manuals`);
    }
    let agentDescribe: Record<string, unknown> | undefined;
    if (opts.strategies.includes('agent')) {
      const setup = agentSetup(opts.llm);
      ctx.agentDeps = setup.deps;
      ctx.agentOptions = setup.options;
      agentDescribe = setup.describe as unknown as Record<string, unknown>;
      log(`agent: decider ${setup.describe.decider}, LLM ${setup.describe.llm ?? 'none (extractive answers)'}, VLM ${setup.describe.vlm ?? 'none'}`);
    }

    // Which questions name their device, and which are later turns of a session (the report's wrong-device groups).
    const namesDevice = new Map<string, boolean>();
    {
      const index = await libraryIndex();
      for (const q of questions) {
        const named = namedDevice(q.question, index);
        namesDevice.set(q.id, named.manualIds.length > 0 && !named.ambiguous);
      }
    }
    const firstTurn = new Set([...new Map(questions.filter((q) => q.session !== undefined).reverse().map((q) => [q.session, q.id])).values()]);
    // The policies every question of this run applies; --train replaces the ranker and the form
    // policy with the ones it chose, a fold of --cv replaces them with its own.
    const devicePolicy = opts.namedDevice ?? 'first';
    const policies: Partial<TurnPolicies> = { namedDevice: devicePolicy };
    const applying = (over: Partial<TurnPolicies>): StrategyContext => ({ ...ctx, policies: { ...policies, ...over } });

    // Training rows for the page ranker (--cv, --train): candidates and features per answerable question.
    let folds = new Map<string, LinearModel>();
    if (opts.cv || opts.train) {
      const index = await libraryIndex();
      const rows: TrainingRow[] = [];
      for (const q of questions) {
        const manualId = manualIdOf.get(q.manual);
        if (!manualId || !isAnswerable(q)) continue;
        rows.push(trainingRow(index, foldOf.get(q.id)!, q, manualId, await rankerInput(q.question, ctx)));
      }
      if (opts.train) {
        const model = trainAll(rows);
        fs.writeFileSync(WEIGHTS_FILE, modelJson(model));
        // The in-sample rows of this run use the model just written, not the one imported at start.
        policies.ranking = model;
        log(`ranker: trained on ${rows.length} questions; weights written to ${WEIGHTS_FILE}`);
      }
      if (opts.cv) {
        folds = foldModels(rows);
        log(`cv: ${folds.size} folds (one per ${opts.cvScheme === 'set' ? 'question set, sets sharing a manual together' : 'manual with questions'})`);
      }
    }

    // The form policy (--cv, --train): each question's reply, recorded once with the ranker its
    // cross-validated run uses and a policy that quotes whenever it can, then the policy chosen by
    // stated precision and coverage (lib/eval/form-cv.ts).
    let formByFold = new Map<string, FormPolicy>();
    let forms: FormsReport | undefined;
    if ((opts.cv || opts.train) && opts.strategies.includes('agent') && opts.llm.kind === 'offline') {
      const samples: Array<FormSample & { id: string }> = [];
      for (const q of questions) {
        const fold = opts.cv ? folds.get(foldOf.get(q.id)!) : undefined;
        const out = await STRATEGY_FNS.agent(q.question, opts.k, applying({ form: NEVER_WITHHOLD, ...(fold && { ranking: fold }) })).catch(() => null);
        const a = out?.answer;
        if (!a?.mode) continue;
        const answerable = isAnswerable(q);
        samples.push({
          id: q.id,
          fold: foldOf.get(q.id)!,
          answerable,
          evidence: a.mode === 'answer' ? (a.evidence ?? null) : null,
          ...(a.mode !== 'answer' ? { fixed: a.mode } : {}),
          keywordHit: answerable && a.mode === 'answer' && keywordHit(a.text, q.answer_keywords),
        });
      }
      const chosen = chooseFormPolicy(samples);
      if (opts.train) {
        fs.writeFileSync(FORM_FILE, `${JSON.stringify(chosen, null, 2)}\n`);
        policies.form = chosen;
        log(`form policy: chosen on ${samples.length} questions (${JSON.stringify(chosen)}); written to ${FORM_FILE}`);
      }
      if (opts.cv) formByFold = formFolds(samples);
      forms = { curve: formCurve(samples), chosen_all: chosen, n: samples.length, samples, ...(opts.cv ? { folds: Object.fromEntries(formByFold) } : {}) };
      log(`form policy: chosen on all ${samples.length} questions ${JSON.stringify(chosen)}`);
    }

    // The clarify threshold (--cv, --train): each single-turn question recorded with asking
    // off and, when its pages span several devices with no device set, with its own manual picked
    // (lib/eval/clarify-cv.ts), each with its fold's ranker.
    let clarify: ReturnType<typeof clarifyReport> | undefined;
    if ((opts.cv || opts.train) && opts.strategies.includes('agent') && opts.llm.kind === 'offline') {
      const samples: ClarifySample[] = [];
      for (const q of questions) {
        const manualId = manualIdOf.get(q.manual);
        if (q.session !== undefined || !manualId) continue;
        const fold = opts.cv ? folds.get(foldOf.get(q.id)!) : undefined;
        const ask = (chat?: EvalChat) =>
          STRATEGY_FNS.agent(q.question, opts.k, applying({ clarify: { maxTopShare: 0 }, ...(fold && { ranking: fold }) }), chat).catch(() => null);
        const outcome = (out: StrategyOutput | null): ClarifyOutcome => ({
          rank: isAnswerable(q) && out ? firstRelevantRank(out.pages.slice(0, opts.k), manualId, q.pages) : null,
          wrongFirst: isAnswerable(q) && !!out && wrongDeviceAt1(out.pages, manualId),
          wrongStated: out?.answer?.mode === 'answer' && !!out.answer.citedManuals?.some((m) => m !== manualId),
        });
        const open = await ask();
        const share = open?.answer?.deviceShare;
        const picked = share !== undefined && share < 1 ? await ask({ turns: [], device: { manualIds: [manualId], device: q.manual, turn: 1 } }) : undefined;
        samples.push({
          id: q.id,
          fold: foldOf.get(q.id)!,
          set: setOf.get(q.id) ?? '',
          answerable: isAnswerable(q),
          ...(share !== undefined ? { share } : {}),
          open: outcome(open),
          ...(picked !== undefined ? { picked: outcome(picked) } : {}),
        });
      }
      clarify = clarifyReport(samples);
      if (opts.train) fs.writeFileSync(CLARIFY_FILE, `${JSON.stringify(clarify.chosen_all)}\n`);
      log(`clarify: ${samples.length} questions recorded; chosen on all ${JSON.stringify(clarify.chosen_all)}; never asking ${JSON.stringify(clarify.never.overall)}; cv ${JSON.stringify(clarify.cv.overall)}`);
    }

    const byStrategy: Record<string, QuestionResult[]> = {};
    const runs: Array<{ name: StrategyName; report: string; cv: boolean }> = opts.strategies.flatMap((name) => [
      { name, report: name, cv: false },
      ...(opts.cv && LEARNED_STRATEGIES.has(name) ? [{ name, report: cvName(name), cv: true }] : []),
    ]);
    for (const { name, report, cv } of runs) {
      const fn = STRATEGY_FNS[name];
      // Warm-up (untimed): opens tables and loads indexes so the first question does not pay for it.
      // Not for the agent: under --record/--replay it would add a call to the recording.
      if (name !== 'agent') await fn(questions[0].question, opts.k, ctx).catch(() => undefined);
      const results: QuestionResult[] = [];
      const chats = new Map<string, EvalChat>();
      const t0 = performance.now();
      for (const q of questions) {
        let chat: EvalChat | undefined;
        if (q.session !== undefined && !chats.has(q.session)) chats.set(q.session, { turns: [], device: null });
        if (q.session !== undefined) chat = chats.get(q.session);
        const manualId = manualIdOf.get(q.manual) ?? null;
        let out: StrategyOutput | null = null;
        let clarified: QuestionResult['clarified'];
        let error: string | undefined;
        const start = performance.now();
        try {
          const fold = cv ? folds.get(foldOf.get(q.id)!) : undefined;
          const policy = cv ? formByFold.get(foldOf.get(q.id)!) : undefined;
          const asked = (inChat = chat) => fn(q.question, opts.k, applying({ ...(fold && { ranking: fold }), ...(policy && { form: policy }) }), inChat);
          out = await asked();
          // "Which device?": answered as a user would, with the question's own manual,
          // which becomes the chat's device; the row holds the answer after the pick.
          if (out.answer?.mode === 'clarify' && manualId) {
            clarified = { choices: out.answer.choices ?? [], ...(out.answer.deviceShare !== undefined ? { deviceShare: out.answer.deviceShare } : {}) };
            const picked: EvalChat = chat ?? { turns: [], device: null };
            picked.device = { manualIds: [manualId], device: q.manual, turn: picked.turns.length + 1 };
            out = await asked(picked);
          }
        } catch (err) {
          error = err instanceof Error ? err.message : String(err);
        }
        const ms = performance.now() - start;
        let deepPages: PageRef[] | undefined;
        const scored = scoreQuestion(q, out, {
          k: opts.k,
          manualId,
          nameOf,
          ms,
          error,
          set: setOf.get(q.id),
          namesDevice: namesDevice.get(q.id),
          followUp: q.session !== undefined && !firstTurn.has(q.id),
          reference: referenceOf(q, references),
          ...(variants?.variantOf.has(q.id) ? { variant: variants.variantOf.get(q.id) } : {}),
        });
        if (scored.answerable && scored.rank === null && out && name !== 'agent' && !cv) {
          // Untimed: how far down was the expected page?
          deepPages = (await fn(q.question, DIAGNOSTIC_DEPTH, ctx).catch(() => null))?.pages;
          if (deepPages) scored.rankAny = scoreQuestion(q, { pages: deepPages }, { k: DIAGNOSTIC_DEPTH, manualId, nameOf, ms }).rank;
        }
        if (clarified) scored.clarified = clarified;
        results.push(scored);
        if (error) log(`${name} ${q.id}: error: ${error}`);
      }
      if (name === 'agent') {
        const keywords = new Map(questions.map((q) => [q.id, q.answer_keywords ?? []]));
        await checkValueRegions(results, (id) => keywords.get(id) ?? [], (manual) => {
          const id = manualIdOf.get(manual);
          return id ? manualSourcePath(id) : undefined;
        });
      }
      byStrategy[report] = results;
      log(`${report}: ${questions.length} questions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }

    const report = buildReport(byStrategy, {
      k: opts.k,
      ...(forms ? { forms } : {}),
      config: {
        qa: opts.qa.map((f) => path.resolve(f)),
        manuals: opts.manuals.map((d) => path.resolve(d)),
        cv: opts.cv === true,
        ...(opts.cv ? { cv_scheme: opts.cvScheme ?? 'manual' } : {}),
        named_device: devicePolicy,
        ...(variants ? { unnamed: variants.rewrites } : {}),
        data_dir: scratch ? null : dataDir,
        k: opts.k,
        questions: questions.length,
        // Latency depends on what else runs on the machine.
        load_avg_1m: Math.round(os.loadavg()[0] * 100) / 100,
        library_manuals: ready.length,
        ingest_ms: ingestMs,
        ingested: ingested.map((f) => ({ file: f.file, status: f.status, duplicate: f.duplicate, pages: f.pages, ocr_pages: f.ocrPages, ms: f.ms, ...(f.error ? { error: f.error } : {}) })),
        embedder: { id: ctx.embedder.id, provider: ctx.embedder.provider, ...(ctx.embedder.fallbackReason ? { fallback_reason: ctx.embedder.fallbackReason } : {}) },
        multivector: { id: ctx.multiVector.id, provider: ctx.multiVector.provider },
        vector_store: ctx.store.provider,
        hybrid_alpha: ctx.alpha,
        ...(agentDescribe ? { agent: agentDescribe } : {}),
      },
    });
    return clarify ? { ...report, clarify } : report;
  } finally {
    await shutdownOcrEngine().catch(() => undefined);
    await closeVectorStores().catch(() => undefined);
    await closeEmbeddings().catch(() => undefined);
    await closeDb().catch(() => undefined);
    if (scratch) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

