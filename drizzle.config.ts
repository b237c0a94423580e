import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './lib/store/schema.ts',
  out: './lib/store/migrations',
});
