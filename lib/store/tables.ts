/**
 * The tables every query in lib/store is written against, for the database this process uses:
 * SQLite (schema.ts, the embedded default) or Postgres (schema-pg.ts, when DATABASE_URL is set).
 *
 * Both schemas infer identical row types and Drizzle's query builder speaks the same API on
 * both, so the queries are written once, typed against the SQLite tables; on Postgres the
 * Postgres tables stand in for them. The few places where the dialects differ (the job queue's
 * row locks, clock expressions, raw SQL) branch on `dialect`. the suite in testing/store-suite.ts runs the
 * same suite against both databases to keep this honest.
 *
 * The choice is made once per process, at first import: a process talks to one database.
 */
import { getConfig } from '../config';
import * as lite from './schema';
import * as pg from './schema-pg';

export type Dialect = 'sqlite' | 'postgres';

export const dialect: Dialect = getConfig().database.dialect;

const onPostgres = dialect === 'postgres';
const pick = <T>(sqliteTable: T, pgTable: unknown): T => (onPostgres ? (pgTable as T) : sqliteTable);

export const manuals = pick(lite.manuals, pg.manuals);
export const workers = pick(lite.workers, pg.workers);
export const pages = pick(lite.pages, pg.pages);
export const chunks = pick(lite.chunks, pg.chunks);
export const units = pick(lite.units, pg.units);
export const sessions = pick(lite.sessions, pg.sessions);
export const messages = pick(lite.messages, pg.messages);
export const shares = pick(lite.shares, pg.shares);
export const feedback = pick(lite.feedback, pg.feedback);
export const apiKeys = pick(lite.apiKeys, pg.apiKeys);
export const apiAudit = pick(lite.apiAudit, pg.apiAudit);
export const users = pick(lite.users, pg.users);
export const rateLimits = pick(lite.rateLimits, pg.rateLimits);
export const inFlight = pick(lite.inFlight, pg.inFlight);

/** The schema object Drizzle's relational queries (db.query.*) are built from. */
export const activeSchema = pick(lite, pg);

export type { ManualStatus, UserRole } from './schema';
