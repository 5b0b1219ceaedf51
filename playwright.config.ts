import { defineConfig } from '@playwright/test';

const CI = Boolean(process.env.CI);

/** Browser tests of the console, in Debian's Chromium (a browser is never downloaded). */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  forbidOnly: CI,
  // Three workers on two cores: the whole phase took 623 s wall and 1222 s of machine-wide CPU
  // with three, 735 s and 1449 s with four, 654 s and 1256 s with two (idle 45 s). A fourth
  // test at once adds work rather than filling waits: every page of a running test re-renders
  // when another test's rows change (live updates), and every wait polls longer.
  workers: 3,
  retries: CI ? 1 : 0,
  // A test that creates a tenant and signs in through the hosted page took 20-30 s on a loaded
  // 2-core machine (two browsers, the server and PostgreSQL sharing both cores): twice that.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // "list" prints each test, the summary reporter one closing line; "json" keeps the details.
  reporter: [
    ['list'],
    ['json', { outputFile: 'test-results/e2e.json' }],
    ['./e2e/summary-reporter.ts'],
  ],
  use: {
    headless: true,
    // A trace records every action's snapshots: recording one for every test cost a third of
    // the browser phase. A test that failed once is traced on its retry (CI retries once).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's headless shell of the same Chromium (package chromium-headless-shell): the
      // headless browser Playwright itself uses for headless runs. The full browser in headless
      // mode spent about twice the CPU on each test's browser context for windows, an address
      // bar and a GPU process nobody sees; the pages render in the same Blink and V8.
      executablePath: '/usr/bin/chromium-headless-shell',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
