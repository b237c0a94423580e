/**
 * Chat sessions, feedback and sharing as the app sees them. Every function that reads private data
 * or changes anything takes the owner id and checks it here; callers (actions, pages, routes) stay
 * thin. A session that is not the caller's is reported as not found, never as forbidden.
 */
import 'server-only';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AgentEvent } from '@/lib/agent/events';
import type { ChatDevice } from '@/lib/store/schema';
import { getChunk, getManual, getPage } from '@/lib/store/manuals';
import {
  activeShareFor,
  clearSessionDevice,
  createSessionWithMessages,
  createShare,
  deleteSession,
  feedbackFor,
  getMessageWithOwner,
  getOwnedSession,
  getShare,
  listMessages,
  listSessions,
  markInterrupted,
  renameSession,
  revokeShare,
  setFeedback,
  updateShareSnapshot,
  type MessageRow,
  type SessionRow,
  type ShareRow,
} from '@/lib/store/sessions';
import { ChatError } from './errors';
import { abortTurn, activeTurn } from './registry';
import { fromStored, type StoredTurn, type TurnStatus } from './view';
import type { BBox } from '@/lib/providers/types';
import type { ValueBox } from '@/lib/answer/value-boxes';
import { manualSourcePath } from '@/lib/ingest/paths';
import { locateValuesInPdf } from '@/lib/pdf-worker/pool';
import { cleanName } from '@/lib/text/hygiene';

export interface SessionSummary {
  id: string;
  title: string;
  updatedAt: number;
}

export interface ShareInfo {
  id: string;
  /** When the snapshot was taken. */
  createdAt: number;
  messageCount: number;
}

export interface ChatData {
  session: SessionSummary & { scope: string[] | null; device: ChatDevice | null };
  turns: StoredTurn[];
  share: ShareInfo | null;
}

export interface SharedChat {
  id: string;
  title: string;
  createdAt: number;
  turns: StoredTurn[];
}

/** 128 random bits, URL-safe (22 characters). */
export function newShareId(): string {
  return randomBytes(16).toString('base64url');
}

function summary(s: SessionRow): SessionSummary {
  return { id: s.id, title: s.title, updatedAt: (s.updatedAt ?? s.createdAt).getTime() };
}

function storedTurn(row: MessageRow, rating?: 1 | -1 | null): StoredTurn {
  // 'running' with no live turn in this process: the process died or the stream was dropped.
  const status: TurnStatus = row.status === 'running' && !activeTurn(row.id) ? 'cancelled' : row.status;
  return {
    id: row.id,
    question: row.question,
    answer: row.answer,
    events: (row.events ?? []) as AgentEvent[],
    status,
    createdAt: row.createdAt.getTime(),
    ...(rating !== undefined ? { rating } : {}),
  };
}

function shareInfo(s: ShareRow): ShareInfo {
  return { id: s.id, createdAt: s.createdAt.getTime(), messageCount: s.snapshot.messages.length };
}

async function requireSession(sessionId: string, ownerId: string | null): Promise<SessionRow> {
  const session = await getOwnedSession(sessionId, ownerId);
  if (!session) throw new ChatError('not_found:chat');
  return session;
}

export async function listChatSessions(ownerId: string | null): Promise<SessionSummary[]> {
  if (!ownerId) return [];
  return (await listSessions(ownerId)).map(summary);
}

/** The owner's chat with every turn (trail included) and the current share, or not_found. */
export async function loadChat(sessionId: string, ownerId: string | null): Promise<ChatData> {
  const session = await requireSession(sessionId, ownerId);
  const rows = await listMessages(session.id);
  await markInterrupted(rows.filter((m) => m.status === 'running' && !activeTurn(m.id)).map((m) => m.id));
  const ratings = await feedbackFor(
    rows.map((r) => r.id),
    session.ownerId,
  );
  const share = await activeShareFor(session.id, session.ownerId);
  return {
    session: { ...summary(session), scope: session.scope ?? null, device: session.device ?? null },
    turns: rows.map((r) => storedTurn(r, ratings.get(r.id) ?? null)),
    share: share ? shareInfo(share) : null,
  };
}

export async function renameChat(ownerId: string | null, sessionId: string, title: string): Promise<SessionSummary> {
  const clean = cleanName(title).slice(0, 120);
  if (!clean) throw new ChatError('bad_request:chat', 'A chat needs a title.');
  await requireSession(sessionId, ownerId);
  await renameSession(sessionId, ownerId!, clean);
  return summary((await getOwnedSession(sessionId, ownerId))!);
}

/** Forgets the device the chat is about (the user cleared the chip): later questions search every manual again. */
export async function clearChatDevice(ownerId: string | null, sessionId: string): Promise<void> {
  await requireSession(sessionId, ownerId);
  await clearSessionDevice(sessionId, ownerId!);
}

export async function deleteChat(ownerId: string | null, sessionId: string): Promise<void> {
  await requireSession(sessionId, ownerId);
  for (const m of await listMessages(sessionId)) if (m.status === 'running') abortTurn(m.id, ownerId!, 'the chat was deleted');
  await deleteSession(sessionId, ownerId!);
}

async function requireMessage(messageId: string, ownerId: string | null): Promise<MessageRow> {
  const found = await getMessageWithOwner(messageId);
  if (!found || !ownerId || found.ownerId !== ownerId) throw new ChatError('not_found:message');
  return found.message;
}

export async function rateAnswer(ownerId: string | null, messageId: string, rating: 1 | -1 | null): Promise<void> {
  await requireMessage(messageId, ownerId);
  await setFeedback(messageId, ownerId!, rating);
}

/** Stop: aborts the running turn (its loop ends and stores status 'cancelled'). */
export async function cancelAnswer(ownerId: string | null, messageId: string): Promise<{ aborted: boolean }> {
  const message = await requireMessage(messageId, ownerId);
  if (abortTurn(messageId, ownerId!)) return { aborted: true };
  if (message.status === 'running') await markInterrupted([messageId]);
  return { aborted: false };
}

/** The messages a viewer of a share sees: finished turns, without the owner's ratings. */
async function snapshotOf(session: SessionRow) {
  const rows = await listMessages(session.id);
  const turns = rows.filter((r) => r.status !== 'running').map((r) => storedTurn(r));
  return { title: session.title, messages: turns as unknown[] };
}

/** Returns the chat's active share link, creating one (a snapshot as of now) if there is none. */
export async function shareChat(ownerId: string | null, sessionId: string): Promise<ShareInfo> {
  const session = await requireSession(sessionId, ownerId);
  const existing = await activeShareFor(session.id, session.ownerId);
  if (existing) return shareInfo(existing);
  const snapshot = await snapshotOf(session);
  if (!snapshot.messages.length) throw new ChatError('bad_request:chat', 'Ask something first: there is nothing to share yet.');
  return shareInfo(await createShare({ id: newShareId(), sessionId: session.id, ownerId: session.ownerId, snapshot }));
}

/** The same link now shows the chat as of now. */
export async function updateChatShare(ownerId: string | null, shareId: string): Promise<ShareInfo> {
  const share = await getShare(shareId);
  if (!share || !ownerId || share.ownerId !== ownerId || share.revokedAt) throw new ChatError('not_found:share');
  const session = await requireSession(share.sessionId, ownerId);
  const updated = await updateShareSnapshot(share.id, ownerId, await snapshotOf(session));
  if (!updated) throw new ChatError('not_found:share');
  return shareInfo(updated);
}

export async function revokeChatShare(ownerId: string | null, shareId: string): Promise<void> {
  const share = await getShare(shareId);
  if (!share || !ownerId || share.ownerId !== ownerId) throw new ChatError('not_found:share');
  await revokeShare(share.id, ownerId);
}

/** A shared snapshot anyone with the link may read; revoked or unknown links are not found. */
export async function loadSharedChat(shareId: string): Promise<SharedChat> {
  const share = await getShare(shareId);
  if (!share || share.revokedAt) throw new ChatError('not_found:share');
  return {
    id: share.id,
    title: share.snapshot.title,
    createdAt: share.createdAt.getTime(),
    turns: share.snapshot.messages as StoredTurn[],
  };
}

/** "Continue in a new chat": a new session owned by the viewer with copies of the snapshot's turns. */
export async function forkSharedChat(ownerId: string, shareId: string): Promise<string> {
  const shared = await loadSharedChat(shareId);
  const id = randomUUID();
  await createSessionWithMessages(
    { id, ownerId, title: shared.title, scope: null },
    shared.turns.map((t) => {
      const view = fromStored(t);
      const metrics = view.metrics ? (({ audit: _audit, ...rest }) => rest)(view.metrics) : null;
      return {
        id: randomUUID(),
        question: t.question,
        answer: t.answer,
        events: t.events as unknown[],
        sources: view.sources as unknown[],
        metrics: metrics as Record<string, unknown> | null,
        audit: null,
        status: t.status === 'running' ? 'cancelled' : t.status,
        createdAt: new Date(t.createdAt),
      };
    }),
  );
  return id;
}

export interface PagePreview {
  manualId: string;
  manualTitle: string;
  page: number;
  width: number;
  height: number;
  highlight: { chunkId: string; heading: string; text: string; bboxes: BBox[] } | null;
  /** The citation's value boxes, placed on their glyphs where the text layer has them (`exact`). */
  values: Array<ValueBox & { exact: boolean }>;
}

/**
 * Page size (and the cited chunk's boxes) for the citation preview, with the citation's quoted
 * values (estimated boxes) moved onto their glyphs from the stored PDF. Manuals are not private.
 */
export async function pagePreview(manualId: string, page: number, chunkId?: string, values: ValueBox[] = []): Promise<PagePreview> {
  const [manual, row] = await Promise.all([getManual(manualId), getPage(manualId, page)]);
  if (!manual || !row) throw new ChatError('not_found:message', 'That page is no longer in the library.');
  let highlight: PagePreview['highlight'] = null;
  if (chunkId) {
    const chunk = await getChunk(chunkId);
    if (chunk && chunk.manualId === manualId && chunk.page === page) {
      highlight = { chunkId: chunk.id, heading: chunk.heading, text: chunk.text, bboxes: chunk.bboxes };
    }
  }
  return { manualId, manualTitle: manual.title, page, width: row.width, height: row.height, highlight, values: await exactValueBoxes(manual, page, values) };
}

/** Value boxes on their glyphs; a page without a text layer there (or an unreadable source) keeps the estimates. */
async function exactValueBoxes(manual: { id: string; password?: string | null }, page: number, values: ValueBox[]): Promise<PagePreview['values']> {
  const estimates = values.map((v) => ({ ...v, exact: false }));
  if (values.length === 0) return estimates;
  // pdf.js runs in a PDF worker process, never in the web server (lib/pdf-worker).
  try {
    const found = await locateValuesInPdf(
      manualSourcePath(manual.id),
      page,
      values.map((v) => ({ value: v.value, near: v })),
      manual.password ?? undefined,
    );
    return values.map((v, i) => (found[i] ? { ...found[i], value: v.value, exact: true } : estimates[i]));
  } catch {
    return estimates;
  }
}
