/**
 * Typed configuration from environment variables (every one is listed in .env.example).
 *
 * Every provider role (vector DB, embeddings, multi-vector, LLM, VLM, decider) gets a resolved
 * provider and a mode: `offline` (embedded, no keys, no servers), `local` (a self-hosted server)
 * or `cloud`. Half-set or contradictory variables are reported together, each with the fix.
 */
import path from 'node:path';
import { z } from 'zod';
import { isLoopbackHost } from './network';

type ProviderMode = 'offline' | 'local' | 'cloud';

export interface RoleConfig<P extends string> {
  provider: P;
  mode: ProviderMode;
  /** Human-readable detail for /api/health and the UI (model name, URL host, fallback…). */
  detail: string;
}

export type VectorDbProvider = 'lancedb' | 'weaviate';
export type EmbeddingsProvider = 'transformers' | 'offline' | 'openai-compatible' | 'gemini';
export type MultiVectorProvider = 'local' | 'colqwen';
export type LlmProvider = 'none' | 'openai-compatible' | 'gemini';
export type DeciderProvider = 'rules' | 'llm';
type RerankerProvider = 'none' | 'transformers';

export interface AppConfig {
  port: number;
  dataDir: string;
  /** Page images, thumbnails and uploaded PDFs: FILES_DIR, default DATA_DIR (a shared volume for several machines). */
  filesDir: string;
  /** Where the state lives: the embedded SQLite file under DATA_DIR, or Postgres at DATABASE_URL. */
  database: { dialect: 'sqlite' } | { dialect: 'postgres'; url: string };
  upload: { maxBytes: number; maxPages: number };
  vectorDb: RoleConfig<VectorDbProvider> & { url?: string; apiKey?: string };
  embeddings: RoleConfig<EmbeddingsProvider> & { model: string; modelDir?: string };
  multiVector: RoleConfig<MultiVectorProvider> & { url?: string };
  llm: RoleConfig<LlmProvider> & { model?: string };
  vlm: RoleConfig<LlmProvider> & { model?: string };
  decider: RoleConfig<DeciderProvider>;
  reranker: RoleConfig<RerankerProvider> & { model: string; modelDir?: string };
  openaiCompatible?: { baseURL: string; apiKey?: string };
  gemini?: { apiKey: string };
  sessionSecret?: string;
  /** Calls one API key may make per minute (MCP tools and /api/v1). */
  apiRatePerMin: number;
  /** Requests one API key may have running at once (MCP and /api/v1), and all keys of one owner together; 429 beyond. */
  apiInFlight: { perKey: number; perOwner: number };
  /** The app's address as colleagues and clients reach it: share links and links in MCP/API answers (stdio has no request to read it from). */
  publicUrl?: string;
  /** The key `npm run mcp` (stdio) acts with: its owner and rate limit, audited like HTTP calls. */
  mcpApiKey?: string;
  /**
   * OCR engine wanted ('auto': the native binary when on PATH, else tesseract.js), languages, pool
   * size; and the engine for figure labels on text pages ('page': the same engine as scanned pages;
   * 'paddle': PaddleOCR, opt-in: docs/benchmarks.md has what it reads and costs).
   */
  ocr: { engine: OcrEngineChoice; figureEngine?: 'page' | 'paddle'; languages: string[]; workers?: number };
  /** Interface `npm start` binds to; anything but loopback requires sign-in (lib/auth/access.ts). */
  host: string;
  /** Reverse proxies in front of the app whose X-Forwarded-For entries are trusted (0: none). */
  trustedProxies: number;
  /** Host names the app answers for besides loopback, this machine's addresses and PUBLIC_URL's (MC_ALLOWED_HOSTS). */
  allowedHosts: string[];
  /** PDF worker processes (lib/pdf-worker): heap cap, memory cap (RSS), per-job deadline, count. */
  pdfWorker: { heapMb: number; maxRssMb: number; jobTimeoutMs: number; processes: number };
  /** The ingest worker the server starts (worker-client.ts): killed, and its manuals failed, past these. */
  ingestWorker: { heapMb: number; maxRssMb: number };
  /**
   * Deadlines on ingest work (lib/ingest/pdf-thread.ts, pipeline.ts): a page read or drawn longer
   * than `pageTimeoutMs`, or with more than `pageMaxOperators` drawing operators, fails its manual;
   * so does a job past `jobBaseMs` + `jobPerPageMs` × its pages. pdf.js for an ingest runs in a
   * thread with a `pageHeapMb` heap, so a page that needs more fails alone.
   */
  ingestLimits: { pageTimeoutMs: number; pageMaxOperators: number; pageHeapMb: number; jobBaseMs: number; jobPerPageMs: number };
  /** Sign-in (lib/auth/access.ts): required unless the app listens on loopback with no proxy in front. */
  auth: {
    signInRequired: boolean;
    adminPassword?: string;
    oidc?: { issuer: string; clientId: string; clientSecret: string; name: string };
  };
}

type OcrEngineChoice = 'auto' | 'tesseract' | 'tesseract.js';

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(blankToUndefined, z.string().trim().optional());
const optionalUrl = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .url({ message: 'must be a full URL such as http://localhost:8080' })
    .refine((u) => /^https?:\/\//i.test(u), { message: 'must start with http:// or https://' })
    .optional(),
);
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z.enum(values, { message: `must be one of: ${values.join(', ')}` }).default('auto' as T[number]),
  );
const positiveInt = (fallback: number) =>
  z.preprocess(blankToUndefined, z.coerce.number({ message: 'must be a number' }).int('must be a whole number').positive('must be positive').default(fallback));

const envSchema = z.object({
  PORT: z.preprocess(
    blankToUndefined,
    z.coerce.number({ message: 'must be a number' }).int().min(1, 'must be 1–65535').max(65535, 'must be 1–65535').default(3000),
  ),
  DATA_DIR: optionalString,
  FILES_DIR: optionalString,
  DATABASE_URL: optionalString,
  MAX_UPLOAD_MB: positiveInt(200),
  MAX_PAGES: positiveInt(2000),

  VECTOR_DB: choice(['auto', 'lancedb', 'weaviate'] as const),
  WEAVIATE_URL: optionalUrl,
  WEAVIATE_API_KEY: optionalString,

  EMBEDDINGS: choice(['auto', 'transformers', 'offline', 'openai-compatible', 'gemini'] as const),
  EMBEDDING_MODEL: optionalString,
  EMBEDDING_MODEL_DIR: optionalString,

  RERANKER: choice(['auto', 'none', 'transformers'] as const),
  RERANKER_MODEL: optionalString,
  RERANKER_MODEL_DIR: optionalString,

  MULTIVECTOR: choice(['auto', 'local', 'colqwen'] as const),
  COLQWEN_URL: optionalUrl,

  LLM_PROVIDER: choice(['auto', 'none', 'openai-compatible', 'gemini'] as const),
  VLM_PROVIDER: choice(['auto', 'none', 'openai-compatible', 'gemini'] as const),
  DECIDER: choice(['auto', 'rules', 'llm'] as const),

  OPENAI_COMPATIBLE_BASE_URL: optionalUrl,
  OPENAI_COMPATIBLE_API_KEY: optionalString,
  OPENAI_COMPATIBLE_MODEL: optionalString,
  OPENAI_COMPATIBLE_VISION_MODEL: optionalString,
  OPENAI_COMPATIBLE_EMBEDDING_MODEL: optionalString,

  GOOGLE_GENERATIVE_AI_API_KEY: optionalString,
  GEMINI_MODEL: optionalString,
  GEMINI_VISION_MODEL: optionalString,
  GEMINI_EMBEDDING_MODEL: optionalString,

  SESSION_SECRET: optionalString,
  API_RATE_PER_MIN: positiveInt(60),
  API_MAX_IN_FLIGHT_PER_KEY: positiveInt(4),
  API_MAX_IN_FLIGHT_PER_OWNER: positiveInt(8),
  PUBLIC_URL: optionalUrl,
  MC_ALLOWED_HOSTS: optionalString,
  MCP_API_KEY: optionalString,

  OCR_ENGINE: choice(['auto', 'tesseract', 'tesseract.js'] as const),
  OCR_FIGURE_ENGINE: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z.enum(['page', 'paddle'], { message: 'must be one of: page, paddle' }).default('page'),
  ),
  OCR_LANGUAGES: optionalString,
  OCR_WORKERS: z.preprocess(
    blankToUndefined,
    z.coerce.number({ message: 'must be a number' }).int('must be a whole number').positive('must be positive').optional(),
  ),

  HOST: z.preprocess(blankToUndefined, z.string().trim().default('127.0.0.1')),
  MC_TRUSTED_PROXIES: z.preprocess(blankToUndefined, z.coerce.number({ message: 'must be a number' }).int().min(0).max(10).optional()),
  /** The name issue 34 asked for; MC_TRUSTED_PROXIES wins when both are set. */
  TRUSTED_PROXIES: z.preprocess(blankToUndefined, z.coerce.number({ message: 'must be a number' }).int().min(0).max(10).optional()),
  PDF_WORKER_HEAP_MB: positiveInt(512),
  PDF_WORKER_MAX_RSS_MB: positiveInt(1024),
  PDF_JOB_TIMEOUT_S: positiveInt(60),
  PDF_WORKERS: positiveInt(2),
  INGEST_WORKER_HEAP_MB: positiveInt(2048),
  INGEST_WORKER_MAX_RSS_MB: positiveInt(3072),
  // The slowest call on the 16 public manuals' 443 pages (load 7–9 on 2 cores) read a page in
  // 4.0 s and drew one in 4.4 s (2.9 s for an OCR render at 3×): 30 s leaves ~7× for a busier
  // machine. The probe's bomb page needs 12 s to read and 140 s to draw.
  INGEST_PAGE_TIMEOUT_S: positiveInt(30),
  // The densest real page has 34,513 operators (a board diagram); 500,000 is 14× that. The
  // budget in time catches costly operators first; this one, floods of cheap ones.
  INGEST_PAGE_MAX_OPERATORS: positiveInt(500_000),
  // pdf.js's heap for one ingest, in its own thread: 1 GB is more than twice what parsing the
  // 2,000-page manual needs (the whole worker peaks at 694–819 MB then).
  INGEST_PAGE_HEAP_MB: positiveInt(1024),
  // A job may take 10 min plus 20 s a page: the slowest ingest measured, scanned pages at load
  // 25–29, ran at 16 s a page; text pages take 0.1–0.2 s. Only stuck work, or pages each just under
  // the page budget, reach it.
  INGEST_JOB_TIMEOUT_S: positiveInt(600),
  INGEST_JOB_S_PER_PAGE: z.preprocess(blankToUndefined, z.coerce.number({ message: 'must be a number' }).min(0, 'must be 0 or more').default(20)),
  MC_AUTH: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z.enum(['auto', 'signin'], { message: 'must be auto or signin' }).default('auto'),
  ),
  MC_ADMIN_PASSWORD: optionalString,
  AUTH_OIDC_ISSUER: optionalUrl,
  AUTH_OIDC_CLIENT_ID: optionalString,
  AUTH_OIDC_CLIENT_SECRET: optionalString,
  AUTH_OIDC_NAME: optionalString,
});

export type RawEnv = Record<string, string | undefined>;

/** Variables whose values must never reach a browser, a log line or an error shown to a user (tests check each). @internal */
export const SECRET_ENV_VARS: readonly string[] = Object.keys(envSchema.shape).filter((k) => /(_API_KEY|_SECRET|_PASSWORD)$/.test(k) || k === 'DATABASE_URL');

const DEFAULT_TRANSFORMERS_MODEL = 'Xenova/bge-small-en-v1.5';
const DEFAULT_GEMINI_MODEL = 'gemini-2.5-flash';
const DEFAULT_GEMINI_EMBEDDING_MODEL = 'gemini-embedding-001';

/** A host on this machine means a self-hosted (local) server; anything else is a cloud service. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || host.startsWith('127.') || host === '0.0.0.0' || host.endsWith('.localhost');
}

const hostOf = (url: string) => new URL(url).host;

export function loadConfig(env: RawEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];

  const openai = e.OPENAI_COMPATIBLE_BASE_URL ? { baseURL: e.OPENAI_COMPATIBLE_BASE_URL, apiKey: e.OPENAI_COMPATIBLE_API_KEY } : undefined;
  const openaiMode: ProviderMode = openai && !isLoopbackUrl(openai.baseURL) ? 'cloud' : 'local';
  if (!openai) {
    for (const name of [
      'OPENAI_COMPATIBLE_API_KEY',
      'OPENAI_COMPATIBLE_MODEL',
      'OPENAI_COMPATIBLE_VISION_MODEL',
      'OPENAI_COMPATIBLE_EMBEDDING_MODEL',
    ] as const) {
      if (e[name]) problems.push(`${name} is set but OPENAI_COMPATIBLE_BASE_URL is not: set the server URL (e.g. http://localhost:11434/v1 for Ollama)`);
    }
  }
  const gemini = e.GOOGLE_GENERATIVE_AI_API_KEY ? { apiKey: e.GOOGLE_GENERATIVE_AI_API_KEY } : undefined;
  if (!gemini) {
    for (const name of ['GEMINI_MODEL', 'GEMINI_VISION_MODEL', 'GEMINI_EMBEDDING_MODEL'] as const) {
      if (e[name]) problems.push(`${name} is set but GOOGLE_GENERATIVE_AI_API_KEY is not: add the Gemini API key`);
    }
  }

  // Vector DB
  let vectorDb: AppConfig['vectorDb'];
  const wantWeaviate = e.VECTOR_DB === 'weaviate' || (e.VECTOR_DB === 'auto' && !!e.WEAVIATE_URL);
  if (e.WEAVIATE_API_KEY && !e.WEAVIATE_URL) {
    problems.push('WEAVIATE_API_KEY is set but WEAVIATE_URL is not: set the cluster URL');
  }
  if (wantWeaviate) {
    if (!e.WEAVIATE_URL) {
      problems.push('VECTOR_DB=weaviate needs WEAVIATE_URL (http://localhost:8080 locally, or your Weaviate Cloud URL)');
      vectorDb = { provider: 'weaviate', mode: 'local', detail: 'missing WEAVIATE_URL' };
    } else {
      const local = isLoopbackUrl(e.WEAVIATE_URL);
      if (!local && !e.WEAVIATE_API_KEY) {
        problems.push(`WEAVIATE_URL points to ${hostOf(e.WEAVIATE_URL)} (a remote cluster) but WEAVIATE_API_KEY is not set`);
      }
      vectorDb = {
        provider: 'weaviate',
        mode: local ? 'local' : 'cloud',
        detail: `Weaviate at ${hostOf(e.WEAVIATE_URL)}`,
        url: e.WEAVIATE_URL,
        apiKey: e.WEAVIATE_API_KEY,
      };
    }
  } else {
    vectorDb = { provider: 'lancedb', mode: 'offline', detail: 'LanceDB on disk (DATA_DIR/lancedb)' };
  }

  // Dense embeddings
  let embeddings: AppConfig['embeddings'];
  const embChoice =
    e.EMBEDDINGS !== 'auto'
      ? e.EMBEDDINGS
      : e.OPENAI_COMPATIBLE_EMBEDDING_MODEL
        ? 'openai-compatible'
        : gemini && e.GEMINI_EMBEDDING_MODEL
          ? 'gemini'
          : 'transformers';
  switch (embChoice) {
    case 'openai-compatible':
      if (!openai) problems.push('EMBEDDINGS=openai-compatible needs OPENAI_COMPATIBLE_BASE_URL');
      if (!e.OPENAI_COMPATIBLE_EMBEDDING_MODEL) problems.push('EMBEDDINGS=openai-compatible needs OPENAI_COMPATIBLE_EMBEDDING_MODEL (e.g. nomic-embed-text)');
      embeddings = {
        provider: 'openai-compatible',
        mode: openaiMode,
        model: e.OPENAI_COMPATIBLE_EMBEDDING_MODEL ?? '',
        detail: `${e.OPENAI_COMPATIBLE_EMBEDDING_MODEL ?? '?'} via ${openai ? hostOf(openai.baseURL) : '?'}`,
      };
      break;
    case 'gemini':
      if (!gemini) problems.push('EMBEDDINGS=gemini needs GOOGLE_GENERATIVE_AI_API_KEY');
      embeddings = {
        provider: 'gemini',
        mode: 'cloud',
        model: e.GEMINI_EMBEDDING_MODEL ?? DEFAULT_GEMINI_EMBEDDING_MODEL,
        detail: `Gemini ${e.GEMINI_EMBEDDING_MODEL ?? DEFAULT_GEMINI_EMBEDDING_MODEL}`,
      };
      break;
    case 'offline':
      embeddings = { provider: 'offline', mode: 'offline', model: 'hashed-char-ngrams', detail: 'offline hashed character n-gram vectors' };
      break;
    default:
      embeddings = {
        provider: 'transformers',
        mode: 'offline',
        model: e.EMBEDDING_MODEL ?? DEFAULT_TRANSFORMERS_MODEL,
        modelDir: e.EMBEDDING_MODEL_DIR,
        detail: `transformers.js ${e.EMBEDDING_MODEL ?? DEFAULT_TRANSFORMERS_MODEL} (offline fallback when the model cannot be loaded)`,
      };
  }

  // Multi-vector
  let multiVector: AppConfig['multiVector'];
  const mvChoice = e.MULTIVECTOR !== 'auto' ? e.MULTIVECTOR : e.COLQWEN_URL ? 'colqwen' : 'local';
  if (mvChoice === 'colqwen') {
    if (!e.COLQWEN_URL) problems.push('MULTIVECTOR=colqwen needs COLQWEN_URL (the ColQwen worker, e.g. http://localhost:8001)');
    multiVector = {
      provider: 'colqwen',
      mode: e.COLQWEN_URL && !isLoopbackUrl(e.COLQWEN_URL) ? 'cloud' : 'local',
      url: e.COLQWEN_URL,
      detail: `ColQwen worker at ${e.COLQWEN_URL ? hostOf(e.COLQWEN_URL) : '?'}`,
    };
  } else {
    if (e.COLQWEN_URL) problems.push('COLQWEN_URL is set but MULTIVECTOR=local: remove one of them');
    multiVector = { provider: 'local', mode: embeddings.mode, detail: 'token vectors of page text + OCR from the active embedder, pooled per page' };
  }

  // LLM and VLM share the configured model unless the role overrides it.
  const resolveLlm = (role: 'LLM_PROVIDER' | 'VLM_PROVIDER'): AppConfig['llm'] => {
    const vision = role === 'VLM_PROVIDER';
    const requested = e[role];
    const pick: LlmProvider = requested !== 'auto' ? requested : openai && e.OPENAI_COMPATIBLE_MODEL ? 'openai-compatible' : gemini ? 'gemini' : 'none';
    if (pick === 'gemini') {
      if (!gemini) problems.push(`${role}=gemini needs GOOGLE_GENERATIVE_AI_API_KEY`);
      const model = (vision ? e.GEMINI_VISION_MODEL : undefined) ?? e.GEMINI_MODEL ?? DEFAULT_GEMINI_MODEL;
      return { provider: 'gemini', mode: 'cloud', model, detail: `Gemini ${model}` };
    }
    if (pick === 'openai-compatible') {
      if (!openai) problems.push(`${role}=openai-compatible needs OPENAI_COMPATIBLE_BASE_URL`);
      const model = (vision ? e.OPENAI_COMPATIBLE_VISION_MODEL : undefined) ?? e.OPENAI_COMPATIBLE_MODEL;
      if (!model) problems.push(`${role}=openai-compatible needs OPENAI_COMPATIBLE_MODEL${vision ? ' or OPENAI_COMPATIBLE_VISION_MODEL' : ''}`);
      return { provider: 'openai-compatible', mode: openaiMode, model, detail: `${model ?? '?'} via ${openai ? hostOf(openai.baseURL) : '?'}` };
    }
    return {
      provider: 'none',
      mode: 'offline',
      detail: vision ? 'no vision model: visual interpretation unavailable' : 'no LLM: rules decisions and extractive cited answers',
    };
  };
  const llm = resolveLlm('LLM_PROVIDER');
  const vlm = resolveLlm('VLM_PROVIDER');

  let decider: AppConfig['decider'];
  if (e.DECIDER === 'llm' && llm.provider === 'none') {
    problems.push('DECIDER=llm needs an LLM: set LLM_PROVIDER (or OPENAI_COMPATIBLE_* / GOOGLE_GENERATIVE_AI_API_KEY)');
  }
  if (e.DECIDER === 'rules' || llm.provider === 'none') {
    decider = { provider: 'rules', mode: 'offline', detail: 'selection matrix + skills (no LLM call)' };
  } else {
    decider = { provider: 'llm', mode: llm.mode, detail: `LLM decisions (${llm.detail}), rules fast path` };
  }

  const reranker = resolveReranker(e, problems);
  // OCR languages: tesseract codes (eng, deu, ces, chi_sim…), English always first.
  const ocrLanguages = ['eng'];
  for (const code of (e.OCR_LANGUAGES ?? '').split(/[\s,+]+/).filter(Boolean)) {
    if (!/^[a-z]{3}(_[a-z]+)?$/i.test(code)) problems.push(`OCR_LANGUAGES: "${code}" is not a tesseract language code (eng, deu, ces, chi_sim…)`);
    else if (!ocrLanguages.includes(code.toLowerCase())) ocrLanguages.push(code.toLowerCase());
  }

  // Only Postgres is a server database here; the embedded default is the SQLite file in DATA_DIR.
  if (e.DATABASE_URL && !/^postgres(ql)?:\/\//i.test(e.DATABASE_URL)) {
    problems.push('DATABASE_URL must be a postgres://user:password@host:5432/db URL (leave it unset for the embedded SQLite file)');
  }
  const oidcSet = [e.AUTH_OIDC_ISSUER, e.AUTH_OIDC_CLIENT_ID, e.AUTH_OIDC_CLIENT_SECRET].filter(Boolean).length;
  if (oidcSet > 0 && oidcSet < 3) problems.push('single sign-on needs all of AUTH_OIDC_ISSUER, AUTH_OIDC_CLIENT_ID and AUTH_OIDC_CLIENT_SECRET');
  if (e.MC_ADMIN_PASSWORD !== undefined && e.MC_ADMIN_PASSWORD.length < 8) problems.push('MC_ADMIN_PASSWORD must be at least 8 characters');

  if (problems.length) throw new ConfigError(problems);

  const dataDir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), e.DATA_DIR ?? 'data');
  const trustedProxies = e.MC_TRUSTED_PROXIES ?? e.TRUSTED_PROXIES ?? 0;
  return {
    port: e.PORT,
    dataDir,
    filesDir: e.FILES_DIR ? path.resolve(/*turbopackIgnore: true*/ process.cwd(), e.FILES_DIR) : dataDir,
    database: e.DATABASE_URL ? { dialect: 'postgres', url: e.DATABASE_URL } : { dialect: 'sqlite' },
    upload: { maxBytes: e.MAX_UPLOAD_MB * 1024 * 1024, maxPages: e.MAX_PAGES },
    vectorDb,
    embeddings,
    multiVector,
    llm,
    vlm,
    decider,
    reranker,
    openaiCompatible: openai,
    gemini,
    sessionSecret: e.SESSION_SECRET,
    ocr: { engine: e.OCR_ENGINE, figureEngine: e.OCR_FIGURE_ENGINE, languages: ocrLanguages, ...(e.OCR_WORKERS ? { workers: e.OCR_WORKERS } : {}) },
    apiRatePerMin: e.API_RATE_PER_MIN,
    apiInFlight: { perKey: e.API_MAX_IN_FLIGHT_PER_KEY, perOwner: e.API_MAX_IN_FLIGHT_PER_OWNER },
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    mcpApiKey: e.MCP_API_KEY,
    host: e.HOST,
    trustedProxies,
    allowedHosts: (e.MC_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    auth: {
      // Loopback with nothing in front: only this machine's user can reach the app (the admin).
      // Any other interface, or a reverse proxy (which makes every request look local), needs sign-in.
      signInRequired: e.MC_AUTH === 'signin' || !isLoopbackHost(e.HOST) || trustedProxies > 0,
      adminPassword: e.MC_ADMIN_PASSWORD,
      oidc:
        oidcSet === 3
          ? {
              issuer: e.AUTH_OIDC_ISSUER!,
              clientId: e.AUTH_OIDC_CLIENT_ID!,
              clientSecret: e.AUTH_OIDC_CLIENT_SECRET!,
              name: e.AUTH_OIDC_NAME ?? 'Single sign-on',
            }
          : undefined,
    },
    pdfWorker: { heapMb: e.PDF_WORKER_HEAP_MB, maxRssMb: e.PDF_WORKER_MAX_RSS_MB, jobTimeoutMs: e.PDF_JOB_TIMEOUT_S * 1000, processes: e.PDF_WORKERS },
    ingestWorker: { heapMb: e.INGEST_WORKER_HEAP_MB, maxRssMb: e.INGEST_WORKER_MAX_RSS_MB },
    ingestLimits: {
      pageTimeoutMs: e.INGEST_PAGE_TIMEOUT_S * 1000,
      pageMaxOperators: e.INGEST_PAGE_MAX_OPERATORS,
      pageHeapMb: e.INGEST_PAGE_HEAP_MB,
      jobBaseMs: e.INGEST_JOB_TIMEOUT_S * 1000,
      jobPerPageMs: e.INGEST_JOB_S_PER_PAGE * 1000,
    },
  };
}

const DEFAULT_RERANKER_MODEL = 'Xenova/ms-marco-MiniLM-L-6-v2';

/**
 * Cross-encoder reranker: transformers.js unless RERANKER=none. Whether a model can actually be
 * loaded is only known at run time (getReranker says why not), so "auto" means "when available".
 */
function resolveReranker(
  e: { RERANKER: 'auto' | 'none' | 'transformers'; RERANKER_MODEL?: string; RERANKER_MODEL_DIR?: string },
  problems: string[],
): AppConfig['reranker'] {
  const model = e.RERANKER_MODEL ?? DEFAULT_RERANKER_MODEL;
  if (e.RERANKER === 'none') {
    for (const name of ['RERANKER_MODEL', 'RERANKER_MODEL_DIR'] as const) {
      if (e[name]) problems.push(`${name} is set but RERANKER=none: remove one of them`);
    }
    return { provider: 'none', mode: 'offline', model, detail: 'turned off (RERANKER=none)' };
  }
  return {
    provider: 'transformers',
    mode: 'offline',
    model,
    modelDir: e.RERANKER_MODEL_DIR,
    detail: `cross-encoder ${model} via transformers.js (skipped when the model cannot be loaded)`,
  };
}

const ENV_KEYS = Object.keys(envSchema.shape);
let cached: { values: Array<string | undefined>; config: AppConfig } | undefined;

/** The process-wide configuration, re-read only when the environment changes (tests swap it). */
export function getConfig(): AppConfig {
  if (!cached || ENV_KEYS.some((k, i) => process.env[k] !== cached!.values[i])) {
    cached = { values: ENV_KEYS.map((k) => process.env[k]), config: loadConfig(process.env) };
  }
  return cached.config;
}

let hosts: { publicUrl?: string; allowed?: string; policy: Pick<AppConfig, 'publicUrl' | 'allowedHosts'> } | undefined;

/**
 * The Host allow-list policy, which every HTTP request reads (lib/security/request-hooks.ts): taken
 * from the configuration again only when one of its two variables changes.
 */
export function hostPolicy(): Pick<AppConfig, 'publicUrl' | 'allowedHosts'> {
  const publicUrl = process.env.PUBLIC_URL;
  const allowed = process.env.MC_ALLOWED_HOSTS;
  if (!hosts || hosts.publicUrl !== publicUrl || hosts.allowed !== allowed) {
    const config = getConfig();
    hosts = { publicUrl, allowed, policy: { publicUrl: config.publicUrl, allowedHosts: config.allowedHosts } };
  }
  return hosts.policy;
}

/** What /api/health and the UI show for each role, without secrets. */
export function describeProviders(config: AppConfig) {
  const role = (r: RoleConfig<string>) => ({ provider: r.provider, mode: r.mode, detail: r.detail });
  return {
    vectorDb: role(config.vectorDb),
    embeddings: role(config.embeddings),
    multiVector: role(config.multiVector),
    llm: role(config.llm),
    vlm: role(config.vlm),
    decider: role(config.decider),
    reranker: role(config.reranker),
  };
}

/**
 * Variables read where they are used rather than at startup: tuning knobs and test hooks that
 * tests and the eval change while the process runs. They go through runtimeEnv() (never
 * process.env directly) and are documented in .env.example like the schema above.
 */
const RUNTIME_ENV_VARS = [
  'MC_SERVER_HEAP_MB',
  'MC_SERVER_RESTARTS',
  'MC_LLM_TIMEOUT_MS',
  'MC_LLM_MAX_ATTEMPTS',
  'MC_LLM_RECORD',
  'MC_LLM_REPLAY',
  'MC_LOG_LEVEL',
  'MC_RATE_ASKS_PER_MIN',
  'MC_RATE_UPLOADS_PER_10MIN',
  'MC_MIN_FREE_MB',
  'EMBEDDING_BATCH_SIZE',
  'EMBEDDING_TIMEOUT_MS',
  'EMBEDDING_PROBE_TIMEOUT_MS',
  'MULTIVECTOR_MAX_VECTORS_PER_PAGE',
  'COLQWEN_TIMEOUT_MS',
  'LANCE_INDEX_CACHE_MB',
  'LANCE_METADATA_CACHE_MB',
  'HF_HUB_OFFLINE',
  'TRANSFORMERS_OFFLINE',
  'MC_NO_SAMPLE',
  'MC_NO_WORKER',
  'MC_JOB_LEASE_MS',
  'MC_WORKER_HOST',
  'MC_E2E',
  'MC_E2E_INGEST_GATE',
  'MC_REBUILD',
] as const;
export type RuntimeEnvVar = (typeof RUNTIME_ENV_VARS)[number];

/** A runtime variable's trimmed value; undefined when unset or blank. */
export function runtimeEnv(name: RuntimeEnvVar, env: RawEnv = process.env): string | undefined {
  return env[name]?.trim() || undefined;
}

/** A positive number from a runtime variable, or the fallback (bad values are ignored). */
export function runtimeNumber(name: RuntimeEnvVar, fallback: number, opts: { integer?: boolean; env?: RawEnv } = {}): number {
  const raw = runtimeEnv(name, opts.env);
  const n = Number(raw);
  const ok = raw !== undefined && Number.isFinite(n) && n > 0 && (!opts.integer || Number.isInteger(n));
  return ok ? n : fallback;
}

/** A test hook switched on with "1". */
export const runtimeFlag = (name: RuntimeEnvVar, env: RawEnv = process.env) => runtimeEnv(name, env) === '1';

/** Every variable the app reads: the startup schema's and the runtime ones (a test checks .env.example lists them all). @internal */
export const ALL_ENV_VARS: readonly string[] = [...Object.keys(envSchema.shape), ...RUNTIME_ENV_VARS];
