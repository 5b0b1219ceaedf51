import { defineConfig } from 'vitest/config';

// The server's integration tests run twice: on PGlite and on the machine's PostgreSQL.
const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  globalSetup: ['apps/server/src/test/global-setup.ts'],
  // One process per worker runs file after file: a fresh process per file spent 5-9 s each
  // importing the whole server again. Every file starts servers and databases of its own, and
  // the server keeps no state in modules that another file could see.
  isolate: false,
};

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'pglite',
          include: ['apps/server/src/**/*.test.ts', 'packages/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
      {
        test: {
          ...shared,
          name: 'postgres',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: ['apps/server/src/**/*.unit.test.ts'],
          env: { TEST_DB: 'postgres' },
        },
      },
      {
        // The React console's component and unit tests (no database).
        test: {
          name: 'web',
          environment: 'jsdom',
          // Vitest's 5 s was too little for a dialog's whole flow on a fully busy machine.
          testTimeout: 30_000,
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
    ],
  },
});
