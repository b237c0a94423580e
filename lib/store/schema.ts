/**
 * SQLite schema (the embedded default); schema-pg.ts mirrors it for Postgres, column for column,
 * so both infer the same row types. Vectors live in the vector store; this database holds everything a
 * person owns or reads: manuals and their pages, chat sessions, messages, shares and feedback.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { BBox } from '../providers/types';

const createdAt = () =>
  integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);
/** A required link to the parent row, deleted with it (ON DELETE CASCADE). */
const cascadeTo = (name: string, parent: () => AnySQLiteColumn) => text(name).notNull().references(parent, { onDelete: 'cascade' });

/** A chat's device context as stored: the manuals of the device a question named, its name as written, the question's number. */
export interface ChatDevice {
  manualIds: string[];
  device: string;
  turn: number;
}

/**
 * A manual's device profile as stored (lib/device/identity.ts): read at ingest from the title and
 * first pages; `basis` is the title and file name it was read from and `version` the reader's, so a
 * rename or a new reader makes it stale and it is read again.
 */
export interface StoredDeviceProfile {
  version: number;
  basis: string;
  name: string;
  maker?: string;
  models: string[];
  variants: string[];
  kind?: string;
}

export const MANUAL_STATUSES = ['queued', 'parsing', 'ocr', 'rendering', 'embedding', 'indexing', 'ready', 'failed'] as const;
export type ManualStatus = (typeof MANUAL_STATUSES)[number];
/** The stages a re-embed shows (lib/ingest/reembed.ts): the last two of an ingest. */
export const REEMBED_STAGES = ['embedding', 'indexing'] as const;
/** The later pass that reads labels in figures by OCR: not run yet (or running), or finished. */
export const FIGURE_LABEL_STATES = ['pending', 'done'] as const;
/** A chat turn while it streams, and how it ended. */
export const MESSAGE_STATUSES = ['running', 'done', 'cancelled', 'failed'] as const;
/** How an API call ended (api_audit). */
export const AUDIT_OUTCOMES = ['ok', 'error', 'refused'] as const;

export const manuals = sqliteTable(
  'manuals',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    fileName: text('file_name').notNull(),
    sha256: text('sha256').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    pageCount: integer('page_count'),
    status: text('status', { enum: MANUAL_STATUSES }).notNull().default('queued'),
    /** Pages done within the current stage, for progress bars. */
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    error: text('error'),
    /** Stable machine-readable error code (e.g. password_required), for the UI to offer a fix. */
    errorCode: text('error_code'),
    /** Only while a password-protected PDF is being ingested; cleared when the job ends. */
    password: text('password'),
    ocrPages: integer('ocr_pages').notNull().default(0),
    /** Ingest attempts interrupted by a crash; past a few the manual fails instead of looping. */
    attempts: integer('attempts').notNull().default(0),
    /** Per-stage durations in ms, JSON: { parsing: 120, ocr: 4000, … }. */
    timings: text('timings', { mode: 'json' }).$type<Record<string, number>>(),
    ownerId: text('owner_id'),
    /** The worker running the job (see workers) and until when its lease holds; null when no job runs. */
    workerId: text('worker_id'),
    leaseUntil: integer('lease_until', { mode: 'timestamp_ms' }),
    /** Fingerprint of the embedders that made the manual's vectors (lib/providers/fingerprint.ts); null: unknown. */
    indexFingerprint: text('index_fingerprint'),
    /** While a ready manual is re-embedded for a new embedder: its stage (it stays searchable meanwhile). */
    reembedStage: text('reembed_stage', { enum: REEMBED_STAGES }),
    /**
     * Progressive availability: pages 1..N have their text indexed and are searchable while the
     * later passes (OCR of figures, images, vectors) go on; equals page_count once ready.
     */
    searchablePages: integer('searchable_pages').notNull().default(0),
    /** Whether figure labels (OCR of figure regions) are in the index yet; null before the job started. */
    figureLabels: text('figure_labels', { enum: FIGURE_LABEL_STATES }),
    /** Which device the manual is about (maker, models, variants, kind); null until read. */
    deviceProfile: text('device_profile', { mode: 'json' }).$type<StoredDeviceProfile>(),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }),
  },
  (t) => [uniqueIndex('manuals_sha256_idx').on(t.sha256), index('manuals_status_idx').on(t.status, t.createdAt)],
);

/** Ingest workers, any machine: a heartbeat row each, so /api/health can list them and their jobs. */
export const workers = sqliteTable('workers', {
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: integer('started_at', { mode: 'timestamp_ms' }).notNull(),
  lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }).notNull(),
});

export const pages = sqliteTable(
  'pages',
  {
    manualId: cascadeTo('manual_id', () => manuals.id),
    number: integer('number').notNull(),
    width: real('width').notNull(),
    height: real('height').notNull(),
    text: text('text').notNull().default(''),
    /** True when some of the page text came from OCR (scanned page or raster figure). */
    ocr: integer('ocr', { mode: 'boolean' }).notNull().default(false),
    ocrText: text('ocr_text'),
    imagePath: text('image_path'),
    thumbPath: text('thumb_path'),
  },
  (t) => [uniqueIndex('pages_manual_number_idx').on(t.manualId, t.number)],
);

/** Chunk text and highlight boxes; vectors live in the vector store under the same id. */
export const chunks = sqliteTable(
  'chunks',
  {
    id: text('id').primaryKey(),
    manualId: cascadeTo('manual_id', () => manuals.id),
    page: integer('page').notNull(),
    heading: text('heading').notNull().default(''),
    text: text('text').notNull(),
    ocr: integer('ocr', { mode: 'boolean' }).notNull().default(false),
    bboxes: text('bboxes', { mode: 'json' }).$type<BBox[]>().notNull(),
  },
  (t) => [index('chunks_manual_page_idx').on(t.manualId, t.page)],
);

/**
 * Structure units read at ingest (lib/ingest/structure.ts): a table, code list,
 * procedure, labelled value, figure or paragraph, with its boxes on each page it covers (`regions`,
 * PDF points from the top-left) and its kind's own fields in `data` (a table's grid, a procedure's
 * steps…). `seq` keeps the reading order; `page`..`pageEnd` the pages a continued unit spans.
 */
export const units = sqliteTable(
  'units',
  {
    id: text('id').primaryKey(),
    manualId: cascadeTo('manual_id', () => manuals.id),
    seq: integer('seq').notNull(),
    kind: text('kind').notNull(),
    page: integer('page').notNull(),
    pageEnd: integer('page_end').notNull(),
    heading: text('heading').notNull().default(''),
    text: text('text').notNull(),
    ocr: integer('ocr', { mode: 'boolean' }).notNull().default(false),
    regions: text('regions', { mode: 'json' }).$type<Array<{ page: number; bbox: BBox }>>().notNull(),
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('units_manual_page_idx').on(t.manualId, t.page)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    title: text('title').notNull().default('New chat'),
    /** Manual ids the chat is scoped to, JSON; null = all manuals. */
    scope: text('scope', { mode: 'json' }).$type<string[] | null>(),
    /** The device the chat is about when no scope is picked (lib/agent/device-context.ts), JSON; null = none. */
    device: text('device', { mode: 'json' }).$type<ChatDevice | null>(),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('sessions_owner_idx').on(t.ownerId)],
);

export const messages = sqliteTable(
  'messages',
  {
    id: text('id').primaryKey(),
    sessionId: cascadeTo('session_id', () => sessions.id),
    position: integer('position').notNull(),
    question: text('question').notNull(),
    answer: text('answer').notNull().default(''),
    /** The streamed agent events of the turn, JSON array (trail). */
    events: text('events', { mode: 'json' }).$type<unknown[]>(),
    sources: text('sources', { mode: 'json' }).$type<unknown[]>(),
    metrics: text('metrics', { mode: 'json' }).$type<Record<string, unknown>>(),
    audit: text('audit', { mode: 'json' }).$type<unknown[]>(),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull().default('running'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('messages_session_position_idx').on(t.sessionId, t.position)],
);

export const shares = sqliteTable(
  'shares',
  {
    id: text('id').primaryKey(),
    sessionId: cascadeTo('session_id', () => sessions.id),
    ownerId: text('owner_id').notNull(),
    /** Messages as of share time, JSON: viewers see this snapshot, not later turns. */
    snapshot: text('snapshot', { mode: 'json' }).$type<{ title: string; messages: unknown[] }>().notNull(),
    createdAt: createdAt(),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('shares_session_idx').on(t.sessionId)],
);

export const feedback = sqliteTable(
  'feedback',
  {
    messageId: cascadeTo('message_id', () => messages.id),
    ownerId: text('owner_id').notNull(),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('feedback_message_owner_idx').on(t.messageId, t.ownerId)],
);

/**
 * API keys for the MCP endpoint and /api/v1: only a SHA-256 of the key is kept (the key is shown
 * once, at creation); `prefix` is its first characters so a list can tell keys apart.
 */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.hash), index('api_keys_owner_idx').on(t.ownerId)],
);

/** One row per API call: who (key id, owner), what (tool), when, how long, outcome. Never the key. */
export const apiAudit = sqliteTable(
  'api_audit',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    keyId: text('key_id').notNull(),
    ownerId: text('owner_id').notNull(),
    /** `mcp:<tool>`, `mcp:<method>` or `v1:ask`. */
    tool: text('tool').notNull(),
    at: createdAt(),
    ms: integer('ms').notNull(),
    outcome: text('outcome', { enum: AUDIT_OUTCOMES }).notNull(),
    message: text('message'),
  },
  (t) => [index('api_audit_key_idx').on(t.keyId, t.at), index('api_audit_owner_idx').on(t.ownerId, t.at)],
);

export const USER_ROLES = ['admin', 'member'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/**
 * People who sign in when the app serves a network (HOST not loopback; lib/auth/access.ts). The
 * row with id `admin` always exists: it owns what the command line ingests and what was ownerless
 * before roles existed; it signs in once MC_ADMIN_PASSWORD (or `npm run users`) sets a password.
 */
export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** Sign-in name: an email address or a plain user name, stored lower-case. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: USER_ROLES }).notNull().default('member'),
    /** scrypt hash (lib/auth/password.ts); null for OIDC-only users and an admin not yet set up. */
    passwordHash: text('password_hash'),
    /** In every session token; raised by a password change or a sign-out, which ends older sessions (lib/auth/session-version.ts). */
    sessionVersion: integer('session_version').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email)],
);

/**
 * Rate-limit counters shared by every server on one Postgres (lib/security/rate-limit.ts): one row
 * per bucket (limit name + key) and fixed window, counted up atomically. SQLite mode keeps its
 * limits in memory (one process serves it); the table exists there too so both schemas mirror.
 */
export const rateLimits = sqliteTable(
  'rate_limits',
  {
    bucket: text('bucket').notNull(),
    /** Start of the window, ms since the epoch. */
    windowStart: integer('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);

/**
 * Requests in flight per API key and per owner, shared by every server on one Postgres: a row per
 * running request, deleted when it ends; a row whose server died expires (`expires_at`, ms).
 */
export const inFlight = sqliteTable(
  'in_flight',
  {
    id: text('id').primaryKey(),
    bucket: text('bucket').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('in_flight_bucket_idx').on(t.bucket)],
);
