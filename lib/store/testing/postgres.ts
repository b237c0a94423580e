/**
 * A fresh Postgres database for one test file, on the server at TEST_DATABASE_URL (or DATABASE_URL
 * when it is a postgres:// URL): created empty, dropped afterwards, so test files never share
 * rows. Without a server the Postgres tests skip with the reason — except in CI (CI=true), where
 * they must run (.ci/run starts a throwaway cluster), so a missing server fails instead.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type TestDatabase = { url: string; drop(): Promise<void> } | { skip: string };

function testServerUrl(): string | undefined {
  const explicit = process.env.TEST_DATABASE_URL?.trim();
  if (explicit) return explicit;
  const url = process.env.DATABASE_URL?.trim();
  return url && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
}

export async function freshTestDatabase(): Promise<TestDatabase> {
  const server = testServerUrl();
  const unavailable = (reason: string): TestDatabase => {
    if (process.env.CI === 'true') throw new Error(`Postgres tests must run in CI: ${reason}`);
    return { skip: reason };
  };
  if (!server) return unavailable('no Postgres server: set TEST_DATABASE_URL=postgres://… (bash scripts/pg-throwaway.sh start DIR PORT starts one)');
  const name = `mc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (err) {
    await admin.end().catch(() => undefined);
    return unavailable(`Postgres at TEST_DATABASE_URL is not usable: ${err instanceof Error ? err.message : String(err)}`);
  }
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
