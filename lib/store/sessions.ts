/**
 * Every query about chat sessions, their messages, shares and feedback lives here (server-only).
 * Functions that change someone's data take the owner id and match it in the WHERE clause, so a
 * forgotten check upstream still cannot touch another owner's rows.
 */
import 'server-only';
import { and, asc, desc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import { getDb, inWriteTurn } from './db';
import { chunks, feedback, messages, sessions, shares } from './tables';

export type SessionRow = typeof sessions.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type ShareRow = typeof shares.$inferSelect;
export type ShareSnapshot = ShareRow['snapshot'];

// ───────────────────────────── sessions ─────────────────────────────

/** `now` is the creation time (tests pass one to order sessions without waiting for the clock). */
export async function createSession(row: { id: string; ownerId: string; title: string; scope: string[] | null }, now = new Date()): Promise<SessionRow> {
  const db = await getDb();
  const [created] = await db
    .insert(sessions)
    .values({ ...row, createdAt: now, updatedAt: now })
    .returning();
  return created;
}

export async function getSession(id: string): Promise<SessionRow | undefined> {
  const db = await getDb();
  return db.query.sessions.findFirst({ where: eq(sessions.id, id) });
}

/** The session if it exists AND belongs to `ownerId`; undefined otherwise (callers answer 404). */
export async function getOwnedSession(id: string, ownerId: string | null): Promise<SessionRow | undefined> {
  if (!ownerId) return undefined;
  const db = await getDb();
  return db.query.sessions.findFirst({ where: and(eq(sessions.id, id), eq(sessions.ownerId, ownerId)) });
}

/** Most recently active first. */
export async function listSessions(ownerId: string, limit = 200): Promise<SessionRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(sessions)
    .where(eq(sessions.ownerId, ownerId))
    .orderBy(desc(sql`coalesce(${sessions.updatedAt}, ${sessions.createdAt})`), desc(sessions.createdAt))
    .limit(limit);
}

export async function renameSession(id: string, ownerId: string, title: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(sessions)
    .set({ title })
    .where(and(eq(sessions.id, id), eq(sessions.ownerId, ownerId)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Deletes the session; messages, shares and feedback cascade. */
export async function deleteSession(id: string, ownerId: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.ownerId, ownerId)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Records activity at `now` (sidebar order) and, when given, the manual scope and the device context of the chat. */
export async function touchSession(id: string, patch: { scope?: string[] | null; device?: SessionRow['device'] } = {}, now = new Date()): Promise<void> {
  const db = await getDb();
  await db
    .update(sessions)
    .set({ updatedAt: now, ...('scope' in patch ? { scope: patch.scope } : {}), ...('device' in patch ? { device: patch.device } : {}) })
    .where(eq(sessions.id, id));
}

/** Clears the chat's device context (the user removed the chip); false when the chat is not the owner's. */
export async function clearSessionDevice(id: string, ownerId: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(sessions)
    .set({ device: null })
    .where(and(eq(sessions.id, id), eq(sessions.ownerId, ownerId)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

// ───────────────────────────── messages ─────────────────────────────

export async function listMessages(sessionId: string): Promise<MessageRow[]> {
  const db = await getDb();
  return db.select().from(messages).where(eq(messages.sessionId, sessionId)).orderBy(asc(messages.position));
}

/** The message with the owner of its session, for ownership checks on message-level actions. */
export async function getMessageWithOwner(id: string): Promise<{ message: MessageRow; ownerId: string } | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ message: messages, ownerId: sessions.ownerId })
    .from(messages)
    .innerJoin(sessions, eq(messages.sessionId, sessions.id))
    .where(eq(messages.id, id))
    .limit(1);
  return row;
}

/** Appends a running message at the end of the session (position = last + 1). */
export async function insertMessage(row: { id: string; sessionId: string; question: string }): Promise<MessageRow> {
  const db = await getDb();
  return inWriteTurn(() =>
    db.transaction(async (tx) => {
      const [last] = await tx
        .select({ position: max(messages.position) })
        .from(messages)
        .where(eq(messages.sessionId, row.sessionId));
      const position = (last?.position ?? -1) + 1;
      const [created] = await tx
        .insert(messages)
        .values({ ...row, position, status: 'running', events: [], createdAt: new Date() })
        .returning();
      return created;
    }),
  );
}

export type MessagePatch = Partial<Pick<MessageRow, 'answer' | 'events' | 'sources' | 'metrics' | 'audit' | 'status'>>;

export async function updateMessage(id: string, patch: MessagePatch): Promise<void> {
  const db = await getDb();
  await db.update(messages).set(patch).where(eq(messages.id, id));
}

export async function deleteMessage(id: string): Promise<void> {
  const db = await getDb();
  await db.delete(messages).where(eq(messages.id, id));
}

/** Marks messages still 'running' (their process died or they were never finished) as cancelled. */
export async function markInterrupted(ids: string[]): Promise<void> {
  if (!ids.length) return;
  const db = await getDb();
  await db
    .update(messages)
    .set({ status: 'cancelled' })
    .where(and(inArray(messages.id, ids), eq(messages.status, 'running')));
}

// ───────────────────────────── feedback ─────────────────────────────

/** Sets (rating ±1) or clears (null) the owner's rating of a message. */
export async function setFeedback(messageId: string, ownerId: string, rating: 1 | -1 | null, comment?: string | null): Promise<void> {
  const db = await getDb();
  if (rating === null) {
    await db.delete(feedback).where(and(eq(feedback.messageId, messageId), eq(feedback.ownerId, ownerId)));
    return;
  }
  await db
    .insert(feedback)
    .values({ messageId, ownerId, rating, comment: comment ?? null, createdAt: new Date() })
    .onConflictDoUpdate({
      target: [feedback.messageId, feedback.ownerId],
      set: { rating, comment: comment ?? null, createdAt: new Date() },
    });
}

export async function feedbackFor(messageIds: string[], ownerId: string): Promise<Map<string, 1 | -1>> {
  const out = new Map<string, 1 | -1>();
  if (!messageIds.length) return out;
  const db = await getDb();
  const rows = await db
    .select({ messageId: feedback.messageId, rating: feedback.rating })
    .from(feedback)
    .where(and(inArray(feedback.messageId, messageIds), eq(feedback.ownerId, ownerId)));
  for (const r of rows) out.set(r.messageId, r.rating > 0 ? 1 : -1);
  return out;
}

// ───────────────────────────── shares ─────────────────────────────

export async function createShare(row: { id: string; sessionId: string; ownerId: string; snapshot: ShareSnapshot }): Promise<ShareRow> {
  const db = await getDb();
  const [created] = await db
    .insert(shares)
    .values({ ...row, createdAt: new Date() })
    .returning();
  return created;
}

export async function getShare(id: string): Promise<ShareRow | undefined> {
  const db = await getDb();
  return db.query.shares.findFirst({ where: eq(shares.id, id) });
}

/** The newest unrevoked share of a session owned by `ownerId`. */
export async function activeShareFor(sessionId: string, ownerId: string): Promise<ShareRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(shares)
    .where(and(eq(shares.sessionId, sessionId), eq(shares.ownerId, ownerId), isNull(shares.revokedAt)))
    .orderBy(desc(shares.createdAt))
    .limit(1);
  return row;
}

/** Replaces the snapshot of an unrevoked share (the same link now shows the chat as of now). */
export async function updateShareSnapshot(id: string, ownerId: string, snapshot: ShareSnapshot): Promise<ShareRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .update(shares)
    .set({ snapshot, createdAt: new Date() })
    .where(and(eq(shares.id, id), eq(shares.ownerId, ownerId), isNull(shares.revokedAt)))
    .returning();
  return row;
}

export async function revokeShare(id: string, ownerId: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(shares)
    .set({ revokedAt: new Date() })
    .where(and(eq(shares.id, id), eq(shares.ownerId, ownerId), isNull(shares.revokedAt)))
    .returning({ id: shares.id });
  return rows.length > 0;
}

/** A new session owned by `ownerId` holding copies of the given messages (fork of a snapshot). */
export async function createSessionWithMessages(
  session: { id: string; ownerId: string; title: string; scope: string[] | null },
  rows: Array<Omit<MessageRow, 'sessionId' | 'position'>>,
): Promise<SessionRow> {
  const db = await getDb();
  return inWriteTurn(() =>
    db.transaction(async (tx) => {
      const now = new Date();
      const [created] = await tx
        .insert(sessions)
        .values({ ...session, createdAt: now, updatedAt: now })
        .returning();
      for (const [position, row] of rows.entries()) {
        await tx.insert(messages).values({ ...row, sessionId: session.id, position });
      }
      return created;
    }),
  );
}

// ───────────────────────────── suggestions ─────────────────────────────

/** Section headings (with a little text) of the given manuals, for offline example questions. */
export async function manualHeadings(manualIds: string[], perManual = 80): Promise<Array<{ manualId: string; heading: string; text: string }>> {
  if (!manualIds.length) return [];
  const db = await getDb();
  const rows = await db
    .select({ manualId: chunks.manualId, heading: chunks.heading, text: sql<string>`substr(${chunks.text}, 1, 400)`, page: chunks.page })
    .from(chunks)
    .where(inArray(chunks.manualId, manualIds))
    .orderBy(asc(chunks.manualId), asc(chunks.page))
    .limit(perManual * manualIds.length);
  return rows.map(({ manualId, heading, text }) => ({ manualId, heading, text }));
}
