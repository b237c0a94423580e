import { defineConfig } from 'drizzle-kit';

// The Postgres twin of drizzle.config.ts (SQLite): `npm run db:generate` writes both.
export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/store/schema-pg.ts',
  out: './lib/store/migrations-pg',
});
