// The store contract on the embedded default: the SQLite file in this test file's DATA_DIR.
delete process.env.DATABASE_URL;
const { afterAll } = await import('vitest');
const { storeContract } = await import('./store.contract');
const { closeDb } = await import('./db');

afterAll(closeDb);
storeContract('sqlite');
