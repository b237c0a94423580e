// The store suite on the embedded default: the SQLite file in this test file's DATA_DIR.
import { afterAll } from 'vitest';

delete process.env.DATABASE_URL;
const { storeSuite } = await import('./testing/store-suite');
const { closeDb } = await import('./db');

afterAll(closeDb);
storeSuite('sqlite');
