/**
 * The state store's behaviour suite, run against each database (store.sqlite.test.ts,
 * store.postgres.test.ts): the same calls, the same answers. It imports the store lazily, because
 * which database the store talks to is fixed when lib/store/tables.ts is first imported.
 */
import { describe, expect, it } from 'vitest';
import { uniqueId as uid } from './ids';

export function storeSuite(label: string) {
  const load = async () => ({
    manuals: await import('../manuals'),
    units: await import('../units'),
    sessions: await import('../sessions'),
    keys: await import('../api-keys'),
    corpus: await import('../corpus'),
    jobs: await import('../jobs'),
    users: await import('../users'),
    db: await import('../db'),
    tables: await import('../tables'),
    drizzle: await import('drizzle-orm'),
  });
  /**
   * Explicit, strictly increasing times for rows whose order a test checks (never behind the real
   * clock, so newer than rows written before): the order does not depend on the clock moving
   * between two calls.
   */
  let clock = 0;
  const later = () => new Date((clock = Math.max(clock + 1, Date.now())));
  /** Sets a manual's creation time (the column's default is the database's clock). */
  async function createdAt(id: string, at: Date) {
    const { db, tables, drizzle } = await load();
    await (await db.getDb()).update(tables.manuals).set({ createdAt: at }).where(drizzle.eq(tables.manuals.id, id));
  }

  describe(`state store suite (${label})`, () => {
    it('talks to the database it was configured for', async () => {
      const { db } = await load();
      expect(db.dbDialect()).toBe(label);
      expect(await db.checkDb()).toMatchObject({ ok: true, dialect: label });
    });

    it('stores structure units with their regions and data, by the pages they cover, and cascades deletes', async () => {
      const { manuals: m, units: u } = await load();
      const id = uid('m');
      await m.createManual({ id, title: 'Units', fileName: 'units.pdf', sha256: uid('sha'), sizeBytes: 1 });
      const table = {
        table: {
          columns: [
            { header: ['Model'], unit: null },
            { header: ['Fuse (A)'], unit: 'A' },
          ],
          headerRows: 1,
          rows: [{ label: 'X1', page: 2, bbox: { x: 1, y: 2, w: 3, h: 4 } }],
          cells: [],
        },
      };
      const rows = [
        {
          id: `${id}:u0`,
          manualId: id,
          seq: 0,
          kind: 'paragraph',
          page: 1,
          pageEnd: 1,
          heading: '',
          text: 'Intro.',
          ocr: false,
          regions: [{ page: 1, bbox: { x: 0, y: 0, w: 10, h: 10 } }],
          data: {},
        },
        {
          id: `${id}:u1`,
          manualId: id,
          seq: 1,
          kind: 'table',
          page: 2,
          pageEnd: 3,
          heading: 'Fuses',
          text: 'X1 · Fuse (A): 2',
          ocr: true,
          regions: [
            { page: 2, bbox: { x: 50.5, y: 60.25, w: 300, h: 200 } },
            { page: 3, bbox: { x: 50.5, y: 70, w: 300, h: 40 } },
          ],
          data: table,
        },
      ];
      // More rows than one insert batch, so the batched write is exercised too.
      const many = Array.from({ length: 450 }, (_, i) => ({ ...rows[0], id: `${id}:u${i + 2}`, seq: i + 2, page: 4, pageEnd: 4 }));
      await u.replaceUnits(id, [...rows, ...many]);
      expect(await u.listUnitsOfPage(id, 3)).toEqual([rows[1]]);
      expect((await u.listUnitsOfPage(id, 2)).map((r) => r.id)).toEqual([`${id}:u1`]);
      expect(await u.listUnitsOfPage(id, 4)).toHaveLength(450);
      // Replacing drops the old rows.
      await u.replaceUnits(id, rows);
      expect(await u.listUnitsOfPage(id, 4)).toEqual([]);
      await u.clearUnits(id);
      expect(await u.listUnitsOfPage(id, 1)).toEqual([]);
      await u.replaceUnits(id, rows);
      await m.deleteManualRow(id);
      expect(await u.listUnitsOfPage(id, 2)).toEqual([]);
    });

    it('stores manuals, pages and chunks with their types intact, and cascades deletes', async () => {
      const { manuals: m, corpus } = await load();
      const id = uid('m');
      const sha = uid('sha');
      await m.createManual({ id, title: 'Pump manual', fileName: 'pump.pdf', sha256: sha, sizeBytes: 1234, ownerId: 'owner-a' });
      // The sha is unique: a second row for the same file is refused.
      await expect(m.createManual({ id: uid('m'), title: 'Copy', fileName: 'copy.pdf', sha256: sha, sizeBytes: 1 })).rejects.toThrow();
      const created = await m.getManual(id);
      expect(created).toMatchObject({
        id,
        title: 'Pump manual',
        status: 'queued',
        progressDone: 0,
        attempts: 0,
        timings: null,
        ownerId: 'owner-a',
        workerId: null,
        leaseUntil: null,
      });
      expect(created!.createdAt).toBeInstanceOf(Date);
      expect(Math.abs(created!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
      expect((await m.findManualBySha(sha))?.id).toBe(id);

      await m.updateManual(id, { status: 'ready', pageCount: 2, timings: { parsing: 12, ocr: 3400 }, ocrPages: 1 });
      const pageRows = [
        {
          number: 2,
          width: 612.5,
          height: 792.25,
          text: 'Second page',
          ocr: true,
          ocrText: 'scanned words',
          imagePath: 'pages/2.png',
          thumbPath: 'thumbs/2.webp',
        },
        { number: 1, width: 612.5, height: 792.25, text: 'First page', ocr: false, ocrText: null, imagePath: 'pages/1.png', thumbPath: 'thumbs/1.webp' },
      ];
      const bboxes = [{ page: 1, x: 10.5, y: 20.25, w: 100, h: 12 }];
      const chunkRows = [
        { id: `${id}:c1`, manualId: id, page: 1, heading: 'Safety', text: 'Wear gloves when servicing the pump.', ocr: false, bboxes },
        { id: `${id}:c2`, manualId: id, page: 2, heading: '', text: 'Fuse rating T6.3A.', ocr: true, bboxes: [] },
      ];
      await m.replacePagesAndChunks(id, pageRows, chunkRows as never);
      expect((await m.listPages(id)).map((p) => [p.number, p.width, p.ocr, p.ocrText])).toEqual([
        [1, 612.5, false, null],
        [2, 612.5, true, 'scanned words'],
      ]);
      expect(await m.getPage(id, 2)).toMatchObject({ manualId: id, text: 'Second page', height: 792.25 });
      expect(await m.getChunk(`${id}:c1`)).toEqual({ ...chunkRows[0] });
      expect(await m.getManual(id)).toMatchObject({ status: 'ready', pageCount: 2, timings: { parsing: 12, ocr: 3400 }, ocrPages: 1 });
      expect(await m.readyManualIds()).toContain(id);
      const versions = await corpus.searchableManualVersions();
      expect(versions.find((v) => v.id === id)).toMatchObject({ title: 'Pump manual', fileName: 'pump.pdf' });
      const rows = await corpus.readCorpusRows([id]);
      expect(rows.pages).toHaveLength(2);
      expect(rows.chunks.map((c) => [c.id, c.ocr, c.bboxes])).toEqual([
        [`${id}:c1`, false, bboxes],
        [`${id}:c2`, true, []],
      ]);

      // Replacing is all-or-nothing: a bad chunk row leaves the previous pages and chunks in place.
      await expect(m.replacePagesAndChunks(id, pageRows, [{ ...chunkRows[0] }, { ...chunkRows[0] }] as never)).rejects.toThrow();
      expect(await m.listPages(id)).toHaveLength(2);
      expect(await m.getChunk(`${id}:c2`)).toBeDefined();

      await m.clearPagesAndChunks(id);
      expect(await m.listPages(id)).toEqual([]);
      await m.replacePagesAndChunks(id, pageRows, chunkRows as never);
      await m.deleteManualRow(id);
      expect(await m.getManual(id)).toBeUndefined();
      expect(await m.listPages(id)).toEqual([]);
      expect(await m.getChunk(`${id}:c1`)).toBeUndefined();
    });

    it('makes a processing manual searchable page by page, and writing a page again never duplicates it', async () => {
      const { manuals: m, corpus } = await load();
      const id = uid('m');
      await m.createManual({ id, title: 'Pump manual', fileName: 'pump.pdf', sha256: uid('sha'), sizeBytes: 1 });
      await m.updateManual(id, { status: 'parsing', pageCount: 3, figureLabels: 'pending' });
      expect(await m.searchableManualIds()).not.toContain(id);
      const page = (n: number) => ({ number: n, width: 1, height: 1, text: `Page ${n}`, ocr: false, ocrText: null, imagePath: null, thumbPath: null });
      const chunk = (n: number) => ({ id: `${id}:p${n}:c0`, manualId: id, page: n, heading: '', text: `Page ${n}`, ocr: false, bboxes: [] });
      await m.indexTextPages(id, [page(1), page(2)], [chunk(1), chunk(2)], 2);
      expect(await m.searchableManualIds()).toContain(id);
      const before = (await corpus.searchableManualVersions()).find((v) => v.id === id)!.version;
      // The text pass written again for page 2 (a retried batch), then page 3.
      await m.indexTextPages(id, [page(2), page(3)], [chunk(2), chunk(3)], 3);
      expect((await m.listPages(id)).map((p) => p.number)).toEqual([1, 2, 3]);
      expect((await corpus.readCorpusRows([id])).chunks.map((c) => c.page)).toEqual([1, 2, 3]);
      expect(await m.getManual(id)).toMatchObject({ searchablePages: 3, figureLabels: 'pending' });
      // The cached index is rebuilt when more pages are searchable.
      expect((await corpus.searchableManualVersions()).find((v) => v.id === id)!.version).not.toBe(before);
      // A failed job's manual is not searched, whatever rows it had.
      await m.updateManual(id, { status: 'failed' });
      expect(await m.searchableManualIds()).not.toContain(id);
      await m.clearPagesAndChunks(id);
      expect(await m.getManual(id)).toMatchObject({ searchablePages: 0 });
      expect(await m.listPages(id)).toEqual([]);
    });

    it('lists manuals newest first', async () => {
      const { manuals: m } = await load();
      const a = uid('m');
      const b = uid('m');
      await m.createManual({ id: a, title: 'A', fileName: 'a.pdf', sha256: uid('sha'), sizeBytes: 1 });
      await createdAt(a, later());
      await m.createManual({ id: b, title: 'B', fileName: 'b.pdf', sha256: uid('sha'), sizeBytes: 1 });
      await createdAt(b, later());
      const ids = (await m.listManuals()).map((r) => r.id);
      expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    });

    it('keeps sessions, messages, feedback and shares scoped to their owner', async () => {
      const { sessions: s } = await load();
      const a = await s.createSession({ id: uid('s'), ownerId: 'owner-a', title: 'First', scope: null }, later());
      const b = await s.createSession({ id: uid('s'), ownerId: 'owner-a', title: 'Second', scope: ['m1', 'm2'] }, later());
      expect((await s.listSessions('owner-a')).map((r) => r.id).slice(0, 2)).toEqual([b.id, a.id]);
      await s.touchSession(a.id, {}, later());
      expect((await s.listSessions('owner-a')).map((r) => r.id).slice(0, 2)).toEqual([a.id, b.id]);
      expect((await s.getOwnedSession(b.id, 'owner-a'))?.scope).toEqual(['m1', 'm2']);
      expect(await s.getOwnedSession(a.id, 'owner-b')).toBeUndefined();
      expect(await s.renameSession(a.id, 'owner-b', 'Hijacked')).toBe(false);
      expect(await s.renameSession(a.id, 'owner-a', 'Renamed')).toBe(true);

      const m1 = await s.insertMessage({ id: uid('msg'), sessionId: a.id, question: 'What fuse?' });
      const m2 = await s.insertMessage({ id: uid('msg'), sessionId: a.id, question: 'And the torque?' });
      expect([m1.position, m2.position, m1.status]).toEqual([0, 1, 'running']);
      await s.updateMessage(m1.id, {
        answer: 'T6.3A [1]',
        status: 'done',
        events: [{ type: 'status', message: 'x' }],
        sources: [{ page: 5 }],
        metrics: { ms: 12 },
      });
      await s.markInterrupted([m1.id, m2.id]);
      const listed = await s.listMessages(a.id);
      expect(listed.map((r) => [r.position, r.status])).toEqual([
        [0, 'done'],
        [1, 'cancelled'],
      ]);
      expect(listed[0]).toMatchObject({ answer: 'T6.3A [1]', events: [{ type: 'status', message: 'x' }], sources: [{ page: 5 }], metrics: { ms: 12 } });
      expect(await s.getMessageWithOwner(m1.id)).toMatchObject({ ownerId: 'owner-a', message: { id: m1.id } });

      await s.setFeedback(m1.id, 'owner-a', 1);
      await s.setFeedback(m1.id, 'owner-a', -1, 'wrong page');
      expect(await s.feedbackFor([m1.id, m2.id], 'owner-a')).toEqual(new Map([[m1.id, -1]]));
      await s.setFeedback(m1.id, 'owner-a', null);
      expect((await s.feedbackFor([m1.id], 'owner-a')).size).toBe(0);

      const snapshot = { title: 'Renamed', messages: [{ q: 'What fuse?' }] };
      const share = await s.createShare({ id: uid('sh'), sessionId: a.id, ownerId: 'owner-a', snapshot });
      expect((await s.getShare(share.id))?.snapshot).toEqual(snapshot);
      expect((await s.activeShareFor(a.id, 'owner-a'))?.id).toBe(share.id);
      expect(await s.updateShareSnapshot(share.id, 'owner-b', { title: 'x', messages: [] })).toBeUndefined();
      expect((await s.updateShareSnapshot(share.id, 'owner-a', { title: 'Now', messages: [] }))?.snapshot.title).toBe('Now');
      expect(await s.revokeShare(share.id, 'owner-b')).toBe(false);
      expect(await s.revokeShare(share.id, 'owner-a')).toBe(true);
      expect(await s.revokeShare(share.id, 'owner-a')).toBe(false);
      expect((await s.getShare(share.id))?.revokedAt).toBeInstanceOf(Date);
      expect(await s.activeShareFor(a.id, 'owner-a')).toBeUndefined();

      const fork = await s.createSessionWithMessages({ id: uid('s'), ownerId: 'owner-c', title: 'Fork', scope: null }, [
        { id: uid('msg'), question: 'q', answer: 'a', events: [], sources: [], metrics: null, audit: null, status: 'done', createdAt: new Date() },
      ]);
      expect((await s.listMessages(fork.id)).map((r) => r.position)).toEqual([0]);

      expect(await s.deleteSession(a.id, 'owner-b')).toBe(false);
      expect(await s.deleteSession(a.id, 'owner-a')).toBe(true);
      expect(await s.listMessages(a.id)).toEqual([]);
      expect(await s.getShare(share.id)).toBeUndefined();
    });

    it('reads headings of chunks cut to 400 characters', async () => {
      const { manuals: m, sessions: s } = await load();
      const id = uid('m');
      await m.createManual({ id, title: 'H', fileName: 'h.pdf', sha256: uid('sha'), sizeBytes: 1 });
      await m.replacePagesAndChunks(
        id,
        [{ number: 1, width: 1, height: 1, text: '', ocr: false, ocrText: null, imagePath: null, thumbPath: null }],
        [{ id: `${id}:c`, manualId: id, page: 1, heading: 'Maintenance', text: 'x'.repeat(1000), ocr: false, bboxes: [] }],
      );
      const rows = await s.manualHeadings([id]);
      expect(rows).toEqual([{ manualId: id, heading: 'Maintenance', text: 'x'.repeat(400) }]);
    });

    it('keeps API keys and their audit trail', async () => {
      const { keys } = await load();
      const owner = uid('owner');
      const key = await keys.insertApiKey({ id: uid('k'), ownerId: owner, name: 'ci', prefix: 'mc_ab', hash: uid('hash') });
      expect(key).toMatchObject({ ownerId: owner, lastUsedAt: null, revokedAt: null });
      expect((await keys.findApiKeyByHash(key.hash))?.id).toBe(key.id);
      await keys.touchApiKey(key.id);
      expect((await keys.listApiKeys(owner))[0].lastUsedAt).toBeInstanceOf(Date);
      expect(await keys.revokeApiKey(key.id, 'someone-else')).toBe(false);
      expect(await keys.revokeApiKey(key.id, owner)).toBe(true);
      expect(await keys.revokeApiKey(key.id, owner)).toBe(false);
      await keys.insertAudit({ keyId: key.id, ownerId: owner, tool: 'mcp:search', ms: 12, outcome: 'ok' });
      await keys.insertAudit({ keyId: key.id, ownerId: owner, tool: 'v1:ask', ms: 30, outcome: 'error', message: 'e'.repeat(600) });
      const audit = await keys.listAudit(owner);
      expect(audit.map((r) => r.tool)).toEqual(['v1:ask', 'mcp:search']);
      expect(audit[0].message).toHaveLength(500);
      expect(audit[0].id).toBeGreaterThan(audit[1].id);
    });

    it('keeps users and roles, with the administrator created by the migration', async () => {
      const { users } = await load();
      expect(await users.getUser(users.ADMIN_USER_ID)).toMatchObject({ role: 'admin', email: 'admin', passwordHash: null });
      const email = `${uid('tech')}@Example.com`;
      const created = await users.createUser({ email, name: 'Tech', role: 'member', passwordHash: 'scrypt$x' });
      expect(created).toMatchObject({ email: email.toLowerCase(), name: 'Tech', role: 'member', passwordHash: 'scrypt$x' });
      expect(created.createdAt).toBeInstanceOf(Date);
      expect((await users.findUserByEmail(` ${email.toUpperCase()} `))?.id).toBe(created.id);
      // Sign-in names are unique.
      await expect(users.createUser({ email, role: 'admin' })).rejects.toThrow();
      await users.updateUser(created.id, { role: 'admin' });
      expect((await users.getUser(created.id))?.role).toBe('admin');
      expect((await users.listUsers()).map((u) => u.id)).toEqual(expect.arrayContaining([users.ADMIN_USER_ID, created.id]));
      await users.deleteUser(created.id);
      expect(await users.getUser(created.id)).toBeUndefined();
      await expect(users.deleteUser(users.ADMIN_USER_ID)).rejects.toThrow(/administrator/);
    });

    describe('job queue', () => {
      async function queued(count: number): Promise<string[]> {
        const { manuals: m } = await load();
        const ids: string[] = [];
        for (let i = 0; i < count; i++) {
          const id = uid('job');
          await m.createManual({ id, title: id, fileName: `${id}.pdf`, sha256: uid('sha'), sizeBytes: 1 });
          await createdAt(id, later());
          ids.push(id);
        }
        return ids;
      }

      /** Moves a job's lease into the past, as if its worker stopped renewing it long ago. */
      async function expireLease(id: string) {
        const { db, tables, drizzle } = await load();
        await (
          await db.getDb()
        )
          .update(tables.manuals)
          .set({ leaseUntil: new Date(Date.now() - 3_600_000) })
          .where(drizzle.eq(tables.manuals.id, id));
      }

      it('hands each queued job to exactly one of many concurrent claimers, oldest first', async () => {
        const { jobs, manuals: m } = await load();
        // Drain what earlier tests left queued, so only this test's jobs are in the queue.
        while (await jobs.claimNextManual('drain')) {}
        const ids = await queued(6);
        const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => jobs.claimNextManual(`worker-${i % 4}`)));
        const got = claims.filter((c): c is string => !!c);
        expect(got.sort()).toEqual([...ids].sort());
        expect(await jobs.claimNextManual('worker-9')).toBeUndefined();
        for (const id of ids) {
          const row = await m.getManual(id);
          expect(row).toMatchObject({ status: 'parsing' });
          expect(row!.workerId).toMatch(/^worker-\d$/);
          expect(row!.leaseUntil!.getTime()).toBeGreaterThan(Date.now());
        }
        // Oldest first, one at a time.
        const [x, y] = await queued(2);
        expect(await jobs.claimNextManual('w')).toBe(x);
        expect(await jobs.claimNextManual('w')).toBe(y);
      });

      it('renews and ends leases only for their holder; reclaims expired, lease-less and dead holders', async () => {
        const { jobs, manuals: m } = await load();
        while (await jobs.claimNextManual('drain')) {}
        const [a, b, c, d] = await queued(4);
        expect(await jobs.claimManual(a, 'w1')).toBe(true);
        expect(await jobs.claimManual(a, 'w2')).toBe(false);
        expect(await jobs.claimManual(b, 'w1')).toBe(true);
        expect(await jobs.claimManual(c, 'w2')).toBe(true);
        expect(await jobs.claimManual(d, 'w3')).toBe(true);
        expect(await jobs.renewLease(a, 'w2')).toBe(false);
        expect(await jobs.renewLease(a, 'w1')).toBe(true);
        expect(await jobs.holdsLease(a, 'w1')).toBe(true);
        expect(await jobs.runningWorkerIds()).toEqual(expect.arrayContaining(['w1', 'w2', 'w3']));

        // Live leases are left alone.
        expect((await jobs.claimInterrupted('reclaimer')).map((r) => r.id)).not.toEqual(expect.arrayContaining([a]));
        await expireLease(a);
        await m.updateManual(b, { status: 'ocr' });
        await expireLease(b);
        const reclaimed = await jobs.claimInterrupted('reclaimer', ['w3']);
        expect(reclaimed.map((r) => r.id).sort()).toEqual([a, b, d].sort());
        // The old holder lost it: it can neither renew nor publish.
        expect(await jobs.renewLease(a, 'w1')).toBe(false);
        expect(await jobs.holdsLease(a, 'w1')).toBe(false);
        // Taken once: a second reclaimer finds nothing of these.
        expect((await jobs.claimInterrupted('other', ['w3'])).map((r) => r.id)).not.toEqual(expect.arrayContaining([a]));

        expect(await jobs.requeueInterrupted(a, 0)).toBe('requeued');
        expect(await m.getManual(a)).toMatchObject({ status: 'queued', attempts: 1, workerId: null, leaseUntil: null });
        expect(await jobs.requeueInterrupted(b, jobs.MAX_ATTEMPTS - 1)).toBe('failed');
        expect(await m.getManual(b)).toMatchObject({ status: 'failed', errorCode: 'interrupted', workerId: null });

        // A job that ends lets go of its lease.
        await jobs.endLease(c, 'not-me');
        expect((await m.getManual(c))?.workerId).toBe('w2');
        await jobs.endLease(c, 'w2');
        expect(await m.getManual(c)).toMatchObject({ workerId: null, leaseUntil: null });
        // A running job with no lease (its status set by hand, a crash before leases) is reclaimable.
        expect((await jobs.claimInterrupted('reclaimer')).map((r) => r.id)).toContain(c);
      });

      it('lets concurrent reclaimers take each dead job once', async () => {
        const { jobs } = await load();
        while (await jobs.claimNextManual('drain')) {}
        const ids = await queued(5);
        for (const id of ids) {
          expect(await jobs.claimManual(id, 'dead-worker')).toBe(true);
          await expireLease(id);
        }
        const taken = (await Promise.all(Array.from({ length: 6 }, (_, i) => jobs.claimInterrupted(`reclaimer-${i}`)))).flat().map((r) => r.id);
        expect(taken.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
      });

      it('hands each stale ready manual to one re-embedding worker, keeps it ready, and records the new fingerprint', async () => {
        const { jobs, manuals: m } = await load();
        while (await jobs.claimNextManual('drain')) {}
        const fp = uid('fp');
        // Earlier tests' ready manuals are stale for this new fingerprint: take them out of the way.
        for (let id = await jobs.claimNextReembed('drain', fp); id; id = await jobs.claimNextReembed('drain', fp)) await jobs.finishReembed(id, 'drain', fp);
        const [a, b, c] = await queued(3);
        for (const id of [a, b]) await m.updateManual(id, { status: 'ready', indexFingerprint: 'old' });
        await m.updateManual(c, { status: 'ready', indexFingerprint: fp });
        expect(await jobs.countStaleManuals(fp)).toBe(2);

        const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => jobs.claimNextReembed(`w${i}`, fp)));
        expect(claims.filter(Boolean).sort()).toEqual([a, b].sort());
        const holder = (id: string) => `w${claims.indexOf(id)}`;
        expect(await m.getManual(a)).toMatchObject({ status: 'ready', reembedStage: 'embedding' });
        expect(await jobs.renewLease(a, holder(a))).toBe(true);
        await jobs.reembedProgress(a, holder(a), 'indexing', 3, 10);
        expect(await m.getManual(a)).toMatchObject({ status: 'ready', reembedStage: 'indexing', progressDone: 3, progressTotal: 10 });
        // Not an interrupted ingest: recovery leaves a re-embed alone.
        await expireLease(b);
        expect((await jobs.claimInterrupted('reclaimer')).map((r) => r.id)).not.toContain(b);

        expect(await jobs.finishReembed(a, 'not-me', fp)).toBe(false);
        expect(await jobs.finishReembed(a, holder(a), fp)).toBe(true);
        expect(await m.getManual(a)).toMatchObject({
          status: 'ready',
          indexFingerprint: fp,
          reembedStage: null,
          workerId: null,
          leaseUntil: null,
          progressTotal: 0,
        });
        // b's worker died: its expired lease lets another take it; a failure waits for the lease.
        expect(await jobs.claimNextReembed('w9', fp)).toBe(b);
        await jobs.abandonReembed(b, 'w9');
        expect(await m.getManual(b)).toMatchObject({ indexFingerprint: 'old', reembedStage: null, workerId: null });
        expect(await jobs.claimNextReembed('w9', fp)).toBeUndefined();
        const byFingerprint = await jobs.indexFingerprints();
        expect(byFingerprint.find((r) => r.fingerprint === fp)?.manuals).toBeGreaterThanOrEqual(2);
        expect(byFingerprint.find((r) => r.fingerprint === 'old')?.manuals).toBe(1);
        await jobs.forgetIndexFingerprints();
        expect((await m.getManual(c))?.indexFingerprint).toBeNull();
      });

      it('reports jobs waiting and running per live worker', async () => {
        const { jobs } = await load();
        while (await jobs.claimNextManual('drain')) {}
        const [a] = await queued(2);
        const me = { id: uid('host/1'), host: 'host', pid: 1, startedAt: new Date() };
        await jobs.heartbeat(me);
        await jobs.heartbeat(me);
        expect(await jobs.claimManual(a, me.id)).toBe(true);
        const report = await jobs.queueReport();
        expect(report.queued).toBeGreaterThanOrEqual(1);
        expect(report.running).toBeGreaterThanOrEqual(1);
        const listed = report.workers.find((w) => w.id === me.id);
        expect(listed).toMatchObject({ host: 'host', pid: 1, jobs: [{ id: a, status: 'parsing' }] });
        await jobs.forgetWorker(me.id);
        expect((await jobs.queueReport()).workers.find((w) => w.id === me.id)).toBeUndefined();
      });
    });
  });
}
