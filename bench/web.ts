/**
 * Web console benchmark: how much JavaScript the sign-in route loads (gzip) and Lighthouse's
 * performance and accessibility scores of the sign-in page, served by the built server with
 * the demo seed, in Debian's Chromium.
 *
 *   npx tsx bench/web.ts [--build | --no-build] [--runs 1] [--lhr-dir <folder>]
 *
 * Results: a table on stdout and bench/results/web.json. See bench/README.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { chromium } from 'playwright-core';
import { format, resolveConfig } from 'prettier';
import { buildAll } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { freshDatabase } from './lib/database';
import { resultsDir, root, serverMain } from './lib/paths';
import { startServer } from './lib/server';

const webDist = join(root, 'apps/web/dist');
const resultsFile = join(resultsDir, 'web.json');
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];
const TARGETS = { signInJsGzipKB: 200, performance: 95, accessibility: 100 };

const { values: args } = parseArgs({
  options: {
    build: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    /** A folder to write each Lighthouse report (the whole JSON) to, for diagnosis. */
    'lhr-dir': { type: 'string' },
  },
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const gzipSize = (body: Buffer) => gzipSync(body, { level: 9 }).length;

function buildIfNeeded() {
  const missing = !existsSync(join(webDist, 'index.html')) || !existsSync(serverMain);
  if (args['no-build'] && missing) throw new Error('the build is missing; run without --no-build');
  if (args.build || missing) buildAll();
}

/** The scripts index.html makes the browser fetch before anything runs (entry + preloads). */
function entryScripts(): { file: string; bytes: number; gzip: number }[] {
  const html = readFileSync(join(webDist, 'index.html'), 'utf8');
  const srcs = new Set<string>();
  for (const match of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) srcs.add(match[1]!);
  for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) {
    srcs.add(match[1]!);
  }
  return [...srcs].map((src) => {
    const body = readFileSync(join(webDist, src.replace(/^\//, '')));
    return { file: src, bytes: body.length, gzip: gzipSize(body) };
  });
}

/** The built server on a fresh PGlite folder with the demo seed; its demo tenant's address. */
async function startDemoServer(cleanups: Cleanups): Promise<string> {
  const database = await freshDatabase('pglite', { prefix: 'tc-bench-web' });
  cleanups.add(database.drop);
  // `localhost`: the browser reaches the demo tenant as demo.localhost, a loopback name.
  const server = await startServer({
    env: { ...database.env, SEED_DEMO: 'true' },
    host: 'localhost',
    cleanups,
  });
  return `http://demo.localhost:${server.port}`;
}

/** Every script the sign-in page loads in Chromium until the form shows, gzip-sized here. */
async function signInScripts(url: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  try {
    const page = await browser.newPage();
    const scripts: { url: string; bytes: number; gzip: number; wire?: string }[] = [];
    const pending: Promise<void>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        response.body().then((body) => {
          scripts.push({
            url: new URL(response.url()).pathname,
            bytes: body.length,
            gzip: gzipSize(body),
            wire: response.headers()['content-encoding'],
          });
        }),
      );
    });
    await page.goto(`${url}/`, { waitUntil: 'networkidle' });
    await page
      .getByRole('button', { name: /^sign in$/i })
      .waitFor({ timeout: 15_000 })
      .catch(() => console.warn('warning: the "Sign in" button did not show'));
    await Promise.all(pending);
    return scripts;
  } finally {
    await browser.close();
  }
}

async function runLighthouse(url: string, preset: 'mobile' | 'desktop') {
  const chrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: [...FLAGS, '--headless=new'],
  });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    if (args['lhr-dir']) {
      mkdirSync(args['lhr-dir'], { recursive: true });
      const name = `${preset}-${new Date().toISOString().replaceAll(':', '')}.json`;
      writeFileSync(join(args['lhr-dir'], name), JSON.stringify(result.lhr));
    }
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const metric = (id: string) => Math.round(audits[id]?.numericValue ?? 0);
    const failedA11y = Object.values(audits)
      .filter(
        (audit) =>
          audit.score === 0 &&
          categories.accessibility?.auditRefs.some((ref) => ref.id === audit.id),
      )
      .map((audit) => audit.id);
    return {
      preset,
      performance: score('performance'),
      accessibility: score('accessibility'),
      metricsMs: {
        firstContentfulPaint: metric('first-contentful-paint'),
        largestContentfulPaint: metric('largest-contentful-paint'),
        totalBlockingTime: metric('total-blocking-time'),
        speedIndex: metric('speed-index'),
      },
      cumulativeLayoutShift:
        Math.round((audits['cumulative-layout-shift']?.numericValue ?? 0) * 1000) / 1000,
      failedAccessibilityAudits: failedA11y,
      runtimeError: result.lhr.runtimeError?.message,
    };
  } finally {
    chrome.kill();
  }
}

async function main() {
  buildIfNeeded();
  const entry = entryScripts();
  const entryGzip = entry.reduce((sum, s) => sum + s.gzip, 0);
  const cleanups = new Cleanups();
  try {
    const url = await startDemoServer(cleanups);
    const loaded = await signInScripts(url);
    const loadedGzip = loaded.reduce((sum, s) => sum + s.gzip, 0);
    const lighthouseRuns: Array<Awaited<ReturnType<typeof runLighthouse>>> = [];
    for (let run = 0; run < Number(args.runs); run += 1) {
      for (const preset of ['mobile', 'desktop'] as const) {
        lighthouseRuns.push(await runLighthouse(`${url}/`, preset));
      }
    }
    const results = {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
      },
      targets: TARGETS,
      signInJs: {
        entryGzipKB: kb(entryGzip),
        loadedGzipKB: kb(loadedGzip),
        meetsTarget: kb(loadedGzip) <= TARGETS.signInJsGzipKB,
        entry: entry.map((s) => ({ ...s, gzipKB: kb(s.gzip) })),
        loaded: loaded.map((s) => ({ ...s, gzipKB: kb(s.gzip) })),
      },
      lighthouse: lighthouseRuns.map((r) => ({
        ...r,
        meetsTargets:
          r.performance >= TARGETS.performance && r.accessibility >= TARGETS.accessibility,
      })),
      // Lighthouse's scores vary from run to run; its documentation judges the median of runs.
      medians: (['mobile', 'desktop'] as const).map((preset) => {
        // A run Lighthouse itself failed (e.g. NO_NAVSTART) has no scores to count.
        const runs = lighthouseRuns.filter((r) => r.preset === preset && !r.runtimeError);
        return {
          preset,
          runs: runs.length,
          performance: median(runs.map((r) => r.performance)),
          accessibility: median(runs.map((r) => r.accessibility)),
        };
      }),
    };
    mkdirSync(dirname(resultsFile), { recursive: true });
    // Formatted like the rest of the repository, so `prettier --check .` stays clean.
    const json = await format(JSON.stringify(results), {
      ...(await resolveConfig(resultsFile)),
      filepath: resultsFile,
    });
    writeFileSync(resultsFile, json);

    console.log(
      `\nsign-in JavaScript (gzip -9): ${kb(loadedGzip)} KB loaded in Chromium, ` +
        `${kb(entryGzip)} KB from index.html (target ≤ ${TARGETS.signInJsGzipKB} KB)`,
    );
    for (const s of loaded) console.log(`  ${s.url}  ${kb(s.bytes)} KB raw, ${kb(s.gzip)} KB gzip`);
    console.log('\nLighthouse, sign-in page (targets: performance ≥ 95, accessibility 100)');
    console.table(
      lighthouseRuns.map((r) => ({
        preset: r.preset,
        performance: r.performance,
        accessibility: r.accessibility,
        'FCP ms': r.metricsMs.firstContentfulPaint,
        'LCP ms': r.metricsMs.largestContentfulPaint,
        'TBT ms': r.metricsMs.totalBlockingTime,
        CLS: r.cumulativeLayoutShift,
        'failed a11y audits': r.failedAccessibilityAudits.join(', '),
      })),
    );
    for (const m of results.medians)
      console.log(
        `median of ${m.runs} ${m.preset} runs: performance ${m.performance}, accessibility ${m.accessibility}`,
      );
    console.log(`\nwritten: ${resultsFile}`);
  } finally {
    await cleanups.run();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
