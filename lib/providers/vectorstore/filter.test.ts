import { describe, expect, it } from 'vitest';
import { lanceWhere, normaliseFilter, sqlString } from './filter';
import { KeyedSerialQueue } from './queue';

describe('filters', () => {
  it('normalises: empty id list = no restriction, bounds rounded inwards, junk bounds ignored', () => {
    expect(normaliseFilter(undefined)).toEqual({});
    expect(normaliseFilter({ manualIds: [] })).toEqual({});
    expect(normaliseFilter({ manualIds: ['a', 'a', 'b'], pages: { from: 1.5, to: 9.7 } })).toEqual({ manualIds: ['a', 'b'], from: 2, to: 9 });
    expect(normaliseFilter({ pages: { from: Number.NaN, to: Infinity } })).toEqual({});
  });

  it('quotes SQL string literals', () => {
    expect(sqlString(`o'brien`)).toBe(`'o''brien'`);
    expect(sqlString(`'); DROP TABLE chunks; --`)).toBe(`'''); DROP TABLE chunks; --'`);
    expect(sqlString('back\\slash "dq" ünï')).toBe(`'back\\slash "dq" ünï'`);
  });

  it('builds LanceDB where clauses', () => {
    expect(lanceWhere()).toBeUndefined();
    expect(lanceWhere({ manualIds: ['m1'] })).toBe(`manual_id = 'm1'`);
    expect(lanceWhere({ manualIds: ['m1', `x'y`], pages: { from: 3, to: 7 } })).toBe(`manual_id IN ('m1', 'x''y') AND page >= 3 AND page <= 7`);
    expect(lanceWhere({ pages: { to: 4 } })).toBe('page <= 4');
  });
});

describe('KeyedSerialQueue', () => {
  it('runs tasks of one key in order, other keys in parallel, and survives failures', async () => {
    const q = new KeyedSerialQueue();
    const log: string[] = [];
    // a1 holds key a until the test lets it finish: b must run meanwhile, a2 and a3 must not.
    let finishA1!: () => void;
    const a1Held = new Promise<void>((resolve) => (finishA1 = resolve));
    const a1 = q.run('a', async () => {
      await a1Held;
      log.push('a1');
    });
    const a2 = q.run('a', async () => {
      log.push('a2');
      throw new Error('boom');
    });
    const a3 = q.run('a', async () => {
      log.push('a3');
      return 3;
    });
    const b1 = q.run('b', async () => {
      log.push('b1');
    });
    await b1;
    expect(log).toEqual(['b1']); // b did not wait for a
    finishA1();
    await a1;
    await expect(a2).rejects.toThrow('boom');
    expect(await a3).toBe(3);
    expect(log).toEqual(['b1', 'a1', 'a2', 'a3']);
    await q.idle();
  });
});
