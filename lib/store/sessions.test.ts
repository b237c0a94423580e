import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from './db';
import { chunks, manuals } from './schema';
import {
  activeShareFor,
  createSession,
  createSessionWithMessages,
  createShare,
  deleteSession,
  feedbackFor,
  getMessageWithOwner,
  getOwnedSession,
  getShare,
  insertMessage,
  listMessages,
  listSessions,
  manualHeadings,
  markInterrupted,
  renameSession,
  revokeShare,
  setFeedback,
  touchSession,
  updateMessage,
  updateShareSnapshot,
} from './sessions';
import { uniqueId as uid } from './testing/ids';

afterAll(closeDb);

describe('sessions store', () => {
  it('creates, lists (most recent first), renames and deletes sessions, scoped to their owner', async () => {
    // Explicit times a millisecond apart: the order does not depend on the clock moving between calls.
    const t = Date.now();
    const a = await createSession({ id: uid('s'), ownerId: 'owner-a', title: 'First', scope: null }, new Date(t));
    const b = await createSession({ id: uid('s'), ownerId: 'owner-a', title: 'Second', scope: ['m1'] }, new Date(t + 1));
    await createSession({ id: uid('s'), ownerId: 'owner-b', title: 'Other', scope: null });

    expect((await listSessions('owner-a')).map((s) => s.id)).toEqual([b.id, a.id]);
    await touchSession(a.id, {}, new Date(t + 2));
    expect((await listSessions('owner-a')).map((s) => s.id)).toEqual([a.id, b.id]);
    expect((await getOwnedSession(b.id, 'owner-a'))?.scope).toEqual(['m1']);

    // Another owner can neither see nor change it.
    expect(await getOwnedSession(a.id, 'owner-b')).toBeUndefined();
    expect(await getOwnedSession(a.id, null)).toBeUndefined();
    expect(await renameSession(a.id, 'owner-b', 'Hijacked')).toBe(false);
    expect(await deleteSession(a.id, 'owner-b')).toBe(false);
    expect((await getOwnedSession(a.id, 'owner-a'))?.title).toBe('First');

    expect(await renameSession(a.id, 'owner-a', 'Renamed')).toBe(true);
    expect((await getOwnedSession(a.id, 'owner-a'))?.title).toBe('Renamed');
    expect(await deleteSession(a.id, 'owner-a')).toBe(true);
    expect(await getOwnedSession(a.id, 'owner-a')).toBeUndefined();
  });

  it('appends messages in order, stores partial state and cascades on delete', async () => {
    const s = await createSession({ id: uid('s'), ownerId: 'owner-m', title: 'Chat', scope: null });
    const m1 = await insertMessage({ id: uid('m'), sessionId: s.id, question: 'Q1' });
    const m2 = await insertMessage({ id: uid('m'), sessionId: s.id, question: 'Q2' });
    expect([m1.position, m2.position]).toEqual([0, 1]);
    expect(m1.status).toBe('running');

    await updateMessage(m1.id, { answer: 'Half an ans', events: [{ type: 'turn_start', t: 0 }], status: 'running' });
    await markInterrupted([m1.id]);
    const [r1, r2] = await listMessages(s.id);
    expect(r1).toMatchObject({ answer: 'Half an ans', events: [{ type: 'turn_start', t: 0 }], status: 'cancelled' });
    expect(r2.question).toBe('Q2');
    expect(await getMessageWithOwner(m2.id)).toMatchObject({ ownerId: 'owner-m', message: { id: m2.id } });

    await setFeedback(m1.id, 'owner-m', 1);
    await setFeedback(m1.id, 'owner-m', -1); // upsert
    expect((await feedbackFor([m1.id, m2.id], 'owner-m')).get(m1.id)).toBe(-1);
    await setFeedback(m1.id, 'owner-m', null);
    expect((await feedbackFor([m1.id], 'owner-m')).size).toBe(0);
    await setFeedback(m2.id, 'owner-m', 1);

    await deleteSession(s.id, 'owner-m');
    expect(await listMessages(s.id)).toEqual([]);
    expect(await getMessageWithOwner(m2.id)).toBeUndefined();
    expect((await feedbackFor([m2.id], 'owner-m')).size).toBe(0);
  });

  it('keeps share snapshots, updates and revokes them only for their owner', async () => {
    const s = await createSession({ id: uid('s'), ownerId: 'owner-s', title: 'Shared', scope: null });
    const share = await createShare({ id: uid('sh'), sessionId: s.id, ownerId: 'owner-s', snapshot: { title: 'Shared', messages: [{ id: 'x' }] } });
    expect((await activeShareFor(s.id, 'owner-s'))?.id).toBe(share.id);
    expect(await activeShareFor(s.id, 'owner-x')).toBeUndefined();

    expect(await updateShareSnapshot(share.id, 'owner-x', { title: 'T', messages: [] })).toBeUndefined();
    expect((await updateShareSnapshot(share.id, 'owner-s', { title: 'Shared', messages: [{ id: 'x' }, { id: 'y' }] }))?.snapshot.messages).toHaveLength(2);

    expect(await revokeShare(share.id, 'owner-x')).toBe(false);
    expect(await revokeShare(share.id, 'owner-s')).toBe(true);
    expect(await revokeShare(share.id, 'owner-s')).toBe(false); // already revoked
    expect((await getShare(share.id))?.revokedAt).toBeInstanceOf(Date);
    expect(await activeShareFor(s.id, 'owner-s')).toBeUndefined();
  });

  it('forks: a new session with copied messages', async () => {
    const id = uid('fork');
    await createSessionWithMessages({ id, ownerId: 'viewer', title: 'Copy', scope: null }, [
      { id: uid('m'), question: 'Q', answer: 'A [1].', events: [], sources: [], metrics: null, audit: null, status: 'done', createdAt: new Date(1000) },
      { id: uid('m'), question: 'Q2', answer: '', events: [], sources: null, metrics: null, audit: null, status: 'cancelled', createdAt: new Date(2000) },
    ]);
    const rows = await listMessages(id);
    expect(rows.map((r) => [r.position, r.question, r.status])).toEqual([
      [0, 'Q', 'done'],
      [1, 'Q2', 'cancelled'],
    ]);
    expect((await getOwnedSession(id, 'viewer'))?.title).toBe('Copy');
  });

  it('lists section headings of manuals for example questions', async () => {
    const db = await getDb();
    const manualId = uid('man');
    await db.insert(manuals).values({ id: manualId, title: 'Test manual', fileName: 't.pdf', sha256: manualId, sizeBytes: 1, status: 'ready' });
    await db.insert(chunks).values([
      { id: `${manualId}:1`, manualId, page: 1, heading: '1 Safety', text: 'Be careful.', bboxes: [] },
      { id: `${manualId}:2`, manualId, page: 2, heading: '2 Error codes', text: 'E01 means low voltage. '.repeat(40), bboxes: [] },
    ]);
    const seeds = await manualHeadings([manualId]);
    expect(seeds.map((s) => s.heading)).toEqual(['1 Safety', '2 Error codes']);
    expect(seeds[1].text.length).toBeLessThanOrEqual(400);
    expect(await manualHeadings([])).toEqual([]);
  });
});
