/**
 * The Postgres schema: a mirror of schema.ts, table for table and column for column, chosen so
 * each column infers the same TypeScript type (timestamps as Date, JSON as values, booleans), which
 * lets every query in lib/store run unchanged on either database (see tables.ts). Change both
 * files together and run `npm run db:generate`; schema-pg.test.ts checks they agree.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { BBox } from '../providers/types';
import { AUDIT_OUTCOMES, FIGURE_LABEL_STATES, MANUAL_STATUSES, MESSAGE_STATUSES, REEMBED_STAGES, USER_ROLES, type StoredDeviceProfile } from './schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });
const createdAt = () =>
  ts('created_at')
    .notNull()
    .default(sql`now()`);
/** A required link to the parent row, deleted with it (ON DELETE CASCADE). */
const cascadeTo = (name: string, parent: () => AnyPgColumn) => text(name).notNull().references(parent, { onDelete: 'cascade' });

/** A chat's device context as stored: the manuals of the device a question named, its name as written, the question's number. */
export interface ChatDevice {
  manualIds: string[];
  device: string;
  turn: number;
}

export const manuals = pgTable(
  'manuals',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    fileName: text('file_name').notNull(),
    sha256: text('sha256').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    pageCount: integer('page_count'),
    status: text('status', { enum: MANUAL_STATUSES }).notNull().default('queued'),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    error: text('error'),
    errorCode: text('error_code'),
    password: text('password'),
    ocrPages: integer('ocr_pages').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    timings: jsonb('timings').$type<Record<string, number>>(),
    ownerId: text('owner_id'),
    workerId: text('worker_id'),
    leaseUntil: ts('lease_until'),
    indexFingerprint: text('index_fingerprint'),
    reembedStage: text('reembed_stage', { enum: REEMBED_STAGES }),
    searchablePages: integer('searchable_pages').notNull().default(0),
    figureLabels: text('figure_labels', { enum: FIGURE_LABEL_STATES }),
    deviceProfile: jsonb('device_profile').$type<StoredDeviceProfile>(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at'),
  },
  (t) => [uniqueIndex('manuals_sha256_idx').on(t.sha256), index('manuals_status_idx').on(t.status, t.createdAt)],
);

export const workers = pgTable('workers', {
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: ts('started_at').notNull(),
  lastSeenAt: ts('last_seen_at').notNull(),
});

export const pages = pgTable(
  'pages',
  {
    manualId: cascadeTo('manual_id', () => manuals.id),
    number: integer('number').notNull(),
    width: doublePrecision('width').notNull(),
    height: doublePrecision('height').notNull(),
    text: text('text').notNull().default(''),
    ocr: boolean('ocr').notNull().default(false),
    ocrText: text('ocr_text'),
    imagePath: text('image_path'),
    thumbPath: text('thumb_path'),
  },
  (t) => [uniqueIndex('pages_manual_number_idx').on(t.manualId, t.number)],
);

export const chunks = pgTable(
  'chunks',
  {
    id: text('id').primaryKey(),
    manualId: cascadeTo('manual_id', () => manuals.id),
    page: integer('page').notNull(),
    heading: text('heading').notNull().default(''),
    text: text('text').notNull(),
    ocr: boolean('ocr').notNull().default(false),
    bboxes: jsonb('bboxes').$type<BBox[]>().notNull(),
  },
  (t) => [index('chunks_manual_page_idx').on(t.manualId, t.page)],
);

/** Structure units read at ingest: see schema.ts. */
export const units = pgTable(
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
    ocr: boolean('ocr').notNull().default(false),
    regions: jsonb('regions').$type<Array<{ page: number; bbox: BBox }>>().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('units_manual_page_idx').on(t.manualId, t.page)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    title: text('title').notNull().default('New chat'),
    scope: jsonb('scope').$type<string[] | null>(),
    /** The device the chat is about when no scope is picked (lib/agent/device-context.ts), JSON; null = none. */
    device: jsonb('device').$type<ChatDevice | null>(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at'),
  },
  (t) => [index('sessions_owner_idx').on(t.ownerId)],
);

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    sessionId: cascadeTo('session_id', () => sessions.id),
    position: integer('position').notNull(),
    question: text('question').notNull(),
    answer: text('answer').notNull().default(''),
    events: jsonb('events').$type<unknown[]>(),
    sources: jsonb('sources').$type<unknown[]>(),
    metrics: jsonb('metrics').$type<Record<string, unknown>>(),
    audit: jsonb('audit').$type<unknown[]>(),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull().default('running'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('messages_session_position_idx').on(t.sessionId, t.position)],
);

export const shares = pgTable(
  'shares',
  {
    id: text('id').primaryKey(),
    sessionId: cascadeTo('session_id', () => sessions.id),
    ownerId: text('owner_id').notNull(),
    snapshot: jsonb('snapshot').$type<{ title: string; messages: unknown[] }>().notNull(),
    createdAt: createdAt(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('shares_session_idx').on(t.sessionId)],
);

export const feedback = pgTable(
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

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.hash), index('api_keys_owner_idx').on(t.ownerId)],
);

export const apiAudit = pgTable(
  'api_audit',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    keyId: text('key_id').notNull(),
    ownerId: text('owner_id').notNull(),
    tool: text('tool').notNull(),
    at: createdAt(),
    ms: integer('ms').notNull(),
    outcome: text('outcome', { enum: AUDIT_OUTCOMES }).notNull(),
    message: text('message'),
  },
  (t) => [index('api_audit_key_idx').on(t.keyId, t.at), index('api_audit_owner_idx').on(t.ownerId, t.at)],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: USER_ROLES }).notNull().default('member'),
    passwordHash: text('password_hash'),
    sessionVersion: integer('session_version').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email)],
);

export const rateLimits = pgTable(
  'rate_limits',
  {
    bucket: text('bucket').notNull(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);

export const inFlight = pgTable(
  'in_flight',
  {
    id: text('id').primaryKey(),
    bucket: text('bucket').notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('in_flight_bucket_idx').on(t.bucket)],
);
