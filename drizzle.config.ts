import { defineConfig } from 'drizzle-kit';

// One schema, one set of committed migrations, applied at start on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './migrations',
});
