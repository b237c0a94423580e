import { getTableColumns, getTableName, is, Table } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as lite from './schema';
import * as pg from './schema-pg';

const tablesOf = (mod: Record<string, unknown>) => Object.fromEntries(Object.entries(mod).filter(([, v]) => is(v, Table))) as Record<string, Table>;

/** name, SQL name, not null, has default, primary key, and the JS type the column maps to. */
function shape(table: Table) {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, c]) => [
      key,
      { name: c.name, notNull: c.notNull, hasDefault: c.hasDefault, primary: c.primary, dataType: c.dataType, enumValues: c.enumValues ?? null },
    ]),
  );
}

describe('the Postgres schema mirrors the SQLite schema', () => {
  const sqliteTables = tablesOf(lite);
  const pgTables = tablesOf(pg);

  it('has the same tables under the same names', () => {
    expect(Object.keys(pgTables).sort()).toEqual(Object.keys(sqliteTables).sort());
    for (const [key, t] of Object.entries(sqliteTables)) expect(getTableName(pgTables[key])).toBe(getTableName(t));
  });

  it('has the same columns with the same constraints and JS types', () => {
    for (const [key, t] of Object.entries(sqliteTables)) {
      // 'json' (SQLite text in json mode) and 'json' (jsonb) agree; 'date' and 'boolean' likewise.
      expect({ table: key, columns: shape(pgTables[key]) }).toEqual({ table: key, columns: shape(t) });
    }
  });
});
