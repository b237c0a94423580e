/** Ownership on every operation, the share lifecycle (snapshot, update, revoke, re-share) and forks. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualSourcePath } from '@/lib/ingest/paths';
import { buildSampleManual } from '@/lib/ingest/testing/sample-manual';
import type { AgentEvent } from '@/lib/agent/events';
import { closeDb, getDb } from '@/lib/store/db';
import { chunks, manuals, pages } from '@/lib/store/schema';
import { createSession, insertMessage, listMessages, updateMessage } from '@/lib/store/sessions';
import { uniqueId as uid } from '@/lib/store/testing/ids';
import { ChatError } from './errors';
import {
  cancelAnswer,
  deleteChat,
  forkSharedChat,
  listChatSessions,
  loadChat,
  loadSharedChat,
  newShareId,
  pagePreview,
  rateAnswer,
  renameChat,
  revokeChatShare,
  shareChat,
  updateChatShare,
} from './service';
import { fromStored } from './view';

afterAll(closeDb);

const EVENTS: AgentEvent[] = [
  { type: 'turn_start', question: 'Voltage?', manualIds: ['m'], budget: 5, decider: 'rules', t: 0 },
  { type: 'decision', iteration: 0, tool: 'hybrid_search', reason: 'spec', decider: 'skill', inputs: {}, available: [], unavailable: [], t: 1 },
  { type: 'response', text: 'It is 24 V DC [1].', sources: [{ ref: 1, kind: 'chunk', manualId: 'm', page: 3, chunkId: 'c', snippet: '24 V DC' }], t: 5 },
  { type: 'done', status: 'done', t: 6 },
];

/** A session of `owner` with one finished turn. */
async function chatOf(owner: string, title = 'Supply voltage') {
  const s = await createSession({ id: uid('s'), ownerId: owner, title, scope: null });
  const m = await insertMessage({ id: uid('m'), sessionId: s.id, question: 'Voltage?' });
  await updateMessage(m.id, { answer: 'It is 24 V DC [1].', events: EVENTS, status: 'done' });
  return { sessionId: s.id, messageId: m.id };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => (e instanceof ChatError ? e.code : `unexpected: ${e}`),
  );

describe('chat service', () => {
  it('share ids carry 128 random bits, URL-safe', () => {
    const ids = new Set(Array.from({ length: 200 }, newShareId));
    expect(ids.size).toBe(200);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    }
  });

  it('restores the owner’s chat with its trail and rating; everyone else gets not_found', async () => {
    const { sessionId, messageId } = await chatOf('alice');
    await rateAnswer('alice', messageId, 1);
    const chat = await loadChat(sessionId, 'alice');
    expect(chat.session).toMatchObject({ id: sessionId, title: 'Supply voltage', scope: null });
    expect(chat.turns).toHaveLength(1);
    expect(chat.turns[0]).toMatchObject({ id: messageId, question: 'Voltage?', status: 'done', rating: 1, events: EVENTS });
    expect(fromStored(chat.turns[0]).sources[0]).toMatchObject({ page: 3, chunkId: 'c' });

    expect(await codeOf(loadChat(sessionId, 'mallory'))).toBe('not_found:chat');
    expect(await codeOf(loadChat(sessionId, null))).toBe('not_found:chat');
    expect(await codeOf(loadChat('no-such-session', 'alice'))).toBe('not_found:chat');
    expect((await listChatSessions('mallory')).some((s) => s.id === sessionId)).toBe(false);
    expect((await listChatSessions('alice')).some((s) => s.id === sessionId)).toBe(true);
    expect(await listChatSessions(null)).toEqual([]);
  });

  it('checks ownership in every mutation: rename, delete, feedback, cancel, share, update, revoke', async () => {
    const { sessionId, messageId } = await chatOf('alice');
    for (const other of ['mallory', null]) {
      expect(await codeOf(renameChat(other, sessionId, 'mine now'))).toBe('not_found:chat');
      expect(await codeOf(deleteChat(other, sessionId))).toBe('not_found:chat');
      expect(await codeOf(rateAnswer(other, messageId, -1))).toBe('not_found:message');
      expect(await codeOf(cancelAnswer(other, messageId))).toBe('not_found:message');
      expect(await codeOf(shareChat(other, sessionId))).toBe('not_found:chat');
    }
    const share = await shareChat('alice', sessionId);
    expect(await codeOf(updateChatShare('mallory', share.id))).toBe('not_found:share');
    expect(await codeOf(revokeChatShare('mallory', share.id))).toBe('not_found:share');
    expect(await codeOf(revokeChatShare(null, share.id))).toBe('not_found:share');
    // Nothing changed.
    const chat = await loadChat(sessionId, 'alice');
    expect(chat.session.title).toBe('Supply voltage');
    expect(chat.turns[0].rating).toBeNull();
    expect((await loadSharedChat(share.id)).turns).toHaveLength(1);

    expect((await renameChat('alice', sessionId, '  New   title ')).title).toBe('New title');
    expect(await codeOf(renameChat('alice', sessionId, '   '))).toBe('bad_request:chat');
    await deleteChat('alice', sessionId);
    expect(await codeOf(loadChat(sessionId, 'alice'))).toBe('not_found:chat');
    expect(await codeOf(loadSharedChat(share.id))).toBe('not_found:share'); // cascade
  });

  it('shares a snapshot as of now, updates it, revokes it (404) and re-shares under a new id', async () => {
    const { sessionId } = await chatOf('alice', 'Spec chat');
    const empty = await createSession({ id: uid('s'), ownerId: 'alice', title: 'Empty', scope: null });
    expect(await codeOf(shareChat('alice', empty.id))).toBe('bad_request:chat');

    const share = await shareChat('alice', sessionId);
    expect(share.messageCount).toBe(1);
    expect(await shareChat('alice', sessionId)).toEqual(share); // the active link is reused
    expect((await loadChat(sessionId, 'alice')).share).toEqual(share);

    // A later turn is not in the snapshot until the owner updates it; a running one never is.
    const m2 = await insertMessage({ id: uid('m'), sessionId, question: 'Current?' });
    await updateMessage(m2.id, { answer: '3.5 A [1].', events: EVENTS, status: 'done' });
    await insertMessage({ id: uid('m'), sessionId, question: 'Still running' });
    const shared = await loadSharedChat(share.id);
    expect(shared).toMatchObject({ id: share.id, title: 'Spec chat' });
    expect(shared.turns.map((t) => t.question)).toEqual(['Voltage?']);
    expect(shared.turns[0]).not.toHaveProperty('rating');
    const updated = await updateChatShare('alice', share.id);
    expect(updated).toMatchObject({ id: share.id, messageCount: 2 });
    expect((await loadSharedChat(share.id)).turns.map((t) => t.question)).toEqual(['Voltage?', 'Current?']);

    await revokeChatShare('alice', share.id);
    expect(await codeOf(loadSharedChat(share.id))).toBe('not_found:share');
    expect(await codeOf(updateChatShare('alice', share.id))).toBe('not_found:share');
    expect((await loadChat(sessionId, 'alice')).share).toBeNull();
    const again = await shareChat('alice', sessionId);
    expect(again.id).not.toBe(share.id);
    expect(await codeOf(loadSharedChat(again.id))).toBe('ok');
    expect(await codeOf(loadSharedChat(share.id))).toBe('not_found:share');
  });

  it('forks a shared snapshot into a new chat owned by the viewer', async () => {
    const { sessionId } = await chatOf('alice', 'Forkable');
    const share = await shareChat('alice', sessionId);
    const forkId = await forkSharedChat('bob', share.id);
    const fork = await loadChat(forkId, 'bob');
    expect(fork.session.title).toBe('Forkable');
    expect(fork.turns).toHaveLength(1);
    expect(fork.turns[0]).toMatchObject({ question: 'Voltage?', answer: 'It is 24 V DC [1].', events: EVENTS, status: 'done', rating: null });
    expect((await listMessages(forkId))[0].sources).toEqual(EVENTS[2].type === 'response' ? EVENTS[2].sources : []);
    // The fork is the viewer's own; the original stays the owner's.
    expect(await codeOf(loadChat(forkId, 'alice'))).toBe('not_found:chat');
    expect(await codeOf(loadChat(sessionId, 'bob'))).toBe('not_found:chat');
    await revokeChatShare('alice', share.id);
    expect(await codeOf(forkSharedChat('bob', share.id))).toBe('not_found:share');
  });

  it('cancel on a turn that is not running in this process just closes it', async () => {
    const s = await createSession({ id: uid('s'), ownerId: 'alice', title: 't', scope: null });
    const m = await insertMessage({ id: uid('m'), sessionId: s.id, question: 'q' });
    expect(await cancelAnswer('alice', m.id)).toEqual({ aborted: false });
    expect((await listMessages(s.id))[0].status).toBe('cancelled');
  });

  it('previews a page: size, and the cited chunk’s boxes when it is on that page', async () => {
    const db = await getDb();
    const manualId = uid('man');
    await db.insert(manuals).values({ id: manualId, title: 'Preview manual', fileName: 'p.pdf', sha256: manualId, sizeBytes: 1, status: 'ready' });
    await db.insert(pages).values({ manualId, number: 3, width: 595, height: 842 });
    await db
      .insert(chunks)
      .values({ id: `${manualId}:c`, manualId, page: 3, heading: 'Electrical data', text: '24 V DC', bboxes: [{ x: 10, y: 20, w: 30, h: 40 }] });
    expect(await pagePreview(manualId, 3, `${manualId}:c`)).toEqual({
      manualId,
      manualTitle: 'Preview manual',
      page: 3,
      width: 595,
      height: 842,
      highlight: { chunkId: `${manualId}:c`, heading: 'Electrical data', text: '24 V DC', bboxes: [{ x: 10, y: 20, w: 30, h: 40 }] },
      values: [],
    });
    expect((await pagePreview(manualId, 3, 'other:chunk')).highlight).toBeNull();
    expect(await codeOf(pagePreview(manualId, 9))).toBe('not_found:message');
    // No source PDF to read: a quoted value keeps its estimated box, marked as such.
    const estimate = { x: 12, y: 20, w: 8, h: 10, value: '24 V' };
    expect((await pagePreview(manualId, 3, undefined, [estimate])).values).toEqual([{ ...estimate, exact: false }]);
  });

  it('moves a quoted value’s estimated box onto its glyphs in the stored PDF', async () => {
    const { bytes, truth } = await buildSampleManual();
    const db = await getDb();
    const manualId = uid('man');
    await db.insert(manuals).values({ id: manualId, title: 'Sample', fileName: 's.pdf', sha256: manualId, sizeBytes: bytes.length, status: 'ready' });
    await db.insert(pages).values({ manualId, number: 1, width: 595, height: 842 });
    fs.mkdirSync(path.dirname(manualSourcePath(manualId)), { recursive: true });
    fs.writeFileSync(manualSourcePath(manualId), bytes);
    const cell = truth.lines.find((l) => l.page === 1 && l.kind === 'table' && l.text === '2.5')!;
    // The estimate a row "Max current | 2.5 | A" gives by character share: well left of the cell.
    const estimate = { x: 120, y: cell.baseline - 8, w: 10, h: 10, value: '2.5' };
    const [value] = (await pagePreview(manualId, 1, undefined, [estimate])).values;
    expect(value.exact).toBe(true);
    expect(value.value).toBe('2.5');
    expect(value.x).toBeCloseTo(cell.x, 1);
    expect(value.w).toBeCloseTo(cell.width, 1);
  });
});
