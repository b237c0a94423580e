/**
 * Queries about API keys and the API audit log (server side; no 'server-only' import because
 * `npm run mcp` loads it outside Next). Changes match the owner id in the
 * WHERE clause, like every other owner-scoped query.
 */
import { and, desc, eq, isNull } from 'drizzle-orm';
import { getDb } from './db';
import { apiAudit, apiKeys } from './tables';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ApiAuditRow = typeof apiAudit.$inferSelect;

export async function insertApiKey(row: { id: string; ownerId: string; name: string; prefix: string; hash: string }): Promise<ApiKeyRow> {
  const db = await getDb();
  const [created] = await db.insert(apiKeys).values(row).returning();
  return created;
}

export async function listApiKeys(ownerId: string): Promise<ApiKeyRow[]> {
  const db = await getDb();
  return db.select().from(apiKeys).where(eq(apiKeys.ownerId, ownerId)).orderBy(desc(apiKeys.createdAt));
}

export async function findApiKeyByHash(hash: string): Promise<ApiKeyRow | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.hash, hash)).limit(1);
  return row;
}

/** Returns whether a key of this owner was revoked now. */
export async function revokeApiKey(id: string, ownerId: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.ownerId, ownerId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

export async function touchApiKey(id: string): Promise<void> {
  const db = await getDb();
  await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, id));
}

type AuditInput = { keyId: string; ownerId: string; tool: string; ms: number; outcome: ApiAuditRow['outcome']; message?: string };

/** Rows waiting for the next turn of the event loop, and the write that will take them. */
let pendingAudit: { rows: AuditInput[]; written: Promise<void> } | undefined;

/**
 * Records an audit row. Rows of one turn of the event loop are written together, in one insert:
 * a burst of refused calls (a hundred at once from one key) costs one commit — one disk flush,
 * which SQLite makes on the request thread — instead of one each, so health
 * checks never queue behind them. Resolves once the row is stored.
 */
export function insertAudit(row: AuditInput): Promise<void> {
  if (!pendingAudit) {
    const rows: AuditInput[] = [];
    const written = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      pendingAudit = undefined;
      const db = await getDb();
      await db.insert(apiAudit).values(rows.map((r) => ({ ...r, message: r.message?.slice(0, 500) })));
    });
    pendingAudit = { rows, written };
  }
  pendingAudit.rows.push(row);
  return pendingAudit.written;
}

export async function listAudit(ownerId: string, limit = 50): Promise<ApiAuditRow[]> {
  const db = await getDb();
  return db.select().from(apiAudit).where(eq(apiAudit.ownerId, ownerId)).orderBy(desc(apiAudit.at), desc(apiAudit.id)).limit(limit);
}
