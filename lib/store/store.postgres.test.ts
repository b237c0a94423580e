// The store suite on Postgres: a fresh database on TEST_DATABASE_URL's server (skipped with
// the reason when there is none, except in CI, where .ci/run starts one and it must run).
import { afterAll, describe, it } from 'vitest';
import { freshTestDatabase } from './testing/postgres';

const database = await freshTestDatabase();
if ('url' in database) {
  process.env.DATABASE_URL = database.url;
  const { storeSuite } = await import('./testing/store-suite');
  const { closeDb } = await import('./db');
  afterAll(async () => {
    await closeDb();
    await database.drop();
  });
  storeSuite('postgres');
} else {
  describe('state store suite (postgres)', () => {
    it.skip(`skipped: ${database.skip}`, () => {});
  });
}
