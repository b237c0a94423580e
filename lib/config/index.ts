/**
 * Typed configuration from environment variables (every one is listed in .env.example).
 *
 * This module reads the app's own settings. The providers' variables belong to their descriptors
 * (lib/providers/registry.ts), which extend this loader (`ConfigExtension`): the layer above adds
 * its schema and resolvers, and every problem, base or provider, is reported together with its fix.
 */
import path from 'node:path';
import { z } from 'zod';
import { isLoopbackHost } from './network';

export interface AppConfig {
  port: number;
  dataDir: string;
  /** Page images, thumbnails and uploaded PDFs: FILES_DIR, default DATA_DIR (a shared volume for several machines). */
  filesDir: string;
  /** Where the state lives: the embedded SQLite file under DATA_DIR, or Postgres at DATABASE_URL. */
  database: { dialect: 'sqlite' } | { dialect: 'postgres'; url: string };
  upload: { maxBytes: number; maxPages: number };
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
export const optionalString = z.preprocess(blankToUndefined, z.string().trim().optional());
export const optionalUrl = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .url({ message: 'must be a full URL such as http://localhost:8080' })
    .refine((u) => /^https?:\/\//i.test(u), { message: 'must start with http:// or https://' })
    .optional(),
);
export const choice = <T extends readonly [string, ...string[]]>(values: T) =>
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
  /** Another name for MC_TRUSTED_PROXIES, which wins when both are set. */
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

/** The app's own variables whose values must never reach a browser, a log line or an error shown to a user; providers add theirs. */
export const APP_SECRET_ENV_VARS: readonly string[] = Object.keys(envSchema.shape).filter(
  (k) => /(_API_KEY|_SECRET|_PASSWORD)$/.test(k) || k === 'DATABASE_URL',
);

/**
 * More variables and what they resolve to, validated with the app's own in one pass: the
 * providers' layer extends the configuration this way, so lib/config never imports it.
 */
export interface ConfigExtension<T> {
  shape: z.ZodRawShape;
  /** Reads the parsed values; pushes each problem with its fix instead of throwing. */
  resolve(values: Record<string, unknown>, problems: string[]): T;
}

/** A host on this machine means a self-hosted (local) server; anything else is a cloud service. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || host.startsWith('127.') || host === '0.0.0.0' || host.endsWith('.localhost');
}

export const hostOf = (url: string) => new URL(url).host;

export function loadConfig(env?: RawEnv): AppConfig;
export function loadConfig<T>(env: RawEnv, extension: ConfigExtension<T>): AppConfig & T;
export function loadConfig<T>(env: RawEnv = process.env, extension?: ConfigExtension<T>): AppConfig & T {
  const parsed = (extension ? envSchema.extend(extension.shape) : envSchema).safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`));
  }
  const e = parsed.data as z.infer<typeof envSchema>;
  const problems: string[] = [];
  const extended = extension?.resolve(parsed.data, problems);

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
  const config: AppConfig = {
    port: e.PORT,
    dataDir,
    filesDir: e.FILES_DIR ? path.resolve(/*turbopackIgnore: true*/ process.cwd(), e.FILES_DIR) : dataDir,
    database: e.DATABASE_URL ? { dialect: 'postgres', url: e.DATABASE_URL } : { dialect: 'sqlite' },
    upload: { maxBytes: e.MAX_UPLOAD_MB * 1024 * 1024, maxPages: e.MAX_PAGES },
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
  return { ...config, ...extended } as AppConfig & T;
}

/** A loader re-run only when one of `keys` changes in process.env (tests swap it); otherwise its last result. */
export function cachedByEnv<T>(keys: readonly string[], load: (env: RawEnv) => T): () => T {
  let cached: { values: Array<string | undefined>; value: T } | undefined;
  return () => {
    if (!cached || keys.some((k, i) => process.env[k] !== cached!.values[i])) {
      cached = { values: keys.map((k) => process.env[k]), value: load(process.env) };
    }
    return cached.value;
  };
}

/** The process-wide configuration, re-read only when the environment changes. */
export const getConfig: () => AppConfig = cachedByEnv(Object.keys(envSchema.shape), (env) => loadConfig(env));

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

/** Every variable the app itself reads: the startup schema's and the runtime ones; providers add theirs. */
export const APP_ENV_VARS: readonly string[] = [...Object.keys(envSchema.shape), ...RUNTIME_ENV_VARS];
