/**
 * Web console benchmark: the console's sign-in page (`/login` of the demo tenant, served by the
 * built server with the demo seed) against a reference page built and served the same way
 * (bench/reference-page: React, one server-rendered form, hydrated), measured in the same run
 * in Debian's Chromium: Lighthouse's scores and metrics, the script each page loads (gzip), and
 * whether the sign-in form is in the first HTML response, usable before any script runs.
 *
 *   npx tsx bench/web.ts [--build | --no-build] [--runs 5] [--desktop] [--lhr-dir <folder>]
 *
 * Results: tables on stdout and bench/results/web.json. See bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { format, resolveConfig } from 'prettier';
import { buildAll } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { freshDatabase } from './lib/database';
import { signInFormInHtml } from './lib/html-tags';
import {
  medianRoundDifferences,
  medians,
  runLighthouse,
  type LighthouseRun,
  type Preset,
} from './lib/lighthouse-run';
import { entryScripts, firstHtml, kb, loadedScripts, totalGzip } from './lib/page-scripts';
import { buildReferencePage, startReferenceServer } from './lib/reference-page';
import { resultsDir, root, serverMain } from './lib/paths';
import { startServer } from './lib/server';

const webDist = join(root, 'apps/web/dist');
const resultsFile = join(resultsDir, 'web.json');
const TARGETS = {
  performance: 95,
  totalBlockingTimeMs: 150,
  /** Sign-in performance may trail the reference's by this many points at most. */
  performanceBehindReference: 5,
  accessibility: 100,
  signInScriptGzipKB: 120,
};

const { values: args } = parseArgs({
  options: {
    build: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: '5' },
    /** Also run Lighthouse's desktop preset (reported, not judged). */
    desktop: { type: 'boolean', default: false },
    /** A folder to write each Lighthouse report (the whole JSON) to, for diagnosis. */
    'lhr-dir': { type: 'string' },
  },
});
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number ≥ 1');
const presets: Preset[] = args.desktop ? ['mobile', 'desktop'] : ['mobile'];

function buildIfNeeded() {
  const missing = !existsSync(join(webDist, 'index.html')) || !existsSync(serverMain);
  if (args['no-build'] && missing) throw new Error('the build is missing; run without --no-build');
  if (args.build || missing) buildAll();
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

/** What is measured of a page once, outside Lighthouse. */
async function measurePage(url: string) {
  const html = await firstHtml(url);
  const entry = await entryScripts(url, html);
  const loaded = await loadedScripts(url);
  return {
    url,
    formInHtml: signInFormInHtml(html),
    script: {
      entryGzipKB: kb(totalGzip(entry)),
      loadedGzipKB: kb(totalGzip(loaded.scripts)),
      entry: entry.map((s) => ({ ...s, gzipKB: kb(s.gzip) })),
      loaded: loaded.scripts.map((s) => ({ ...s, gzipKB: kb(s.gzip) })),
    },
    unthrottled: {
      firstContentfulPaintMs: loaded.firstContentfulPaintMs,
      scriptsLoadedMs: loaded.scriptsLoadedMs,
    },
  };
}

const loadavg = () => os.loadavg().map((l) => Math.round(l * 100) / 100);
const commit = () =>
  spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();

async function main() {
  buildIfNeeded();
  await buildReferencePage();
  const cleanups = new Cleanups();
  try {
    const loadavgAtStart = loadavg();
    const urls = {
      signIn: `${await startDemoServer(cleanups)}/login`,
      reference: `${await startReferenceServer(cleanups)}/`,
    };
    const signIn = await measurePage(urls.signIn);
    const reference = await measurePage(urls.reference);

    // Alternating, and each page first in every other round, so a machine that gets busier or
    // quieter during the run weighs on both pages alike.
    const lighthouseRuns: LighthouseRun[] = [];
    for (let round = 0; round < runs; round += 1) {
      const order =
        round % 2 ? (['reference', 'signIn'] as const) : (['signIn', 'reference'] as const);
      for (const preset of presets) {
        for (const page of order) {
          console.error(`Lighthouse ${preset} ${page}, round ${round + 1} of ${runs}…`);
          const run = await runLighthouse(page, urls[page], preset, args['lhr-dir']);
          lighthouseRuns.push({ ...run, round });
        }
      }
    }
    const mediansOf = (page: string) =>
      Object.fromEntries(
        presets.map((preset) => [
          preset,
          medians(lighthouseRuns.filter((r) => r.page === page && r.preset === preset)),
        ]),
      ) as Record<Preset, ReturnType<typeof medians>>;
    const signInMedians = mediansOf('signIn');
    const referenceMedians = mediansOf('reference');
    const s = signInMedians.mobile;
    const r = referenceMedians.mobile;
    const difference = {
      performance: s.performance - r.performance,
      totalBlockingTimeMs: s.totalBlockingTimeMs - r.totalBlockingTimeMs,
    };
    // For information: the same difference taken within each round, then the median.
    const mobileRuns = lighthouseRuns.filter((run) => run.preset === 'mobile');
    const withinRounds = medianRoundDifferences(mobileRuns, 'signIn', 'reference');
    const verdict = {
      performance: s.performance >= TARGETS.performance,
      totalBlockingTime: s.totalBlockingTimeMs <= TARGETS.totalBlockingTimeMs,
      performanceWithinReference: difference.performance >= -TARGETS.performanceBehindReference,
      accessibility: s.accessibility >= TARGETS.accessibility,
      signInScript: signIn.script.loadedGzipKB <= TARGETS.signInScriptGzipKB,
      // The form is in the first HTML response, so it paints at FCP and posts without script.
      formUsableAtFirstContentfulPaint: signIn.formInHtml.usable,
    };
    const results = {
      date: new Date().toISOString(),
      commit: commit(),
      machine: { cpus: os.cpus().length, loadavgAtStart, loadavgAtEnd: loadavg() },
      runsPerPage: runs,
      targets: TARGETS,
      pages: {
        signIn: { ...signIn, medians: signInMedians },
        reference: { ...reference, medians: referenceMedians },
      },
      differenceMobileMedians: difference,
      medianDifferenceWithinRounds: withinRounds,
      verdict: { ...verdict, all: Object.values(verdict).every(Boolean) },
      lighthouse: lighthouseRuns,
    };
    mkdirSync(dirname(resultsFile), { recursive: true });
    // Formatted like the rest of the repository, so `prettier --check .` stays clean.
    const json = await format(JSON.stringify(results), {
      ...(await resolveConfig(resultsFile)),
      filepath: resultsFile,
    });
    writeFileSync(resultsFile, json);
    printResults(results);
  } finally {
    await cleanups.run();
  }
}

function printResults(results: {
  machine: { loadavgAtStart: number[]; loadavgAtEnd: number[] };
  pages: Record<
    'signIn' | 'reference',
    Awaited<ReturnType<typeof measurePage>> & {
      medians: Record<Preset, ReturnType<typeof medians>>;
    }
  >;
  differenceMobileMedians: { performance: number; totalBlockingTimeMs: number };
  medianDifferenceWithinRounds: ReturnType<typeof medianRoundDifferences>;
  verdict: Record<string, boolean>;
  lighthouse: LighthouseRun[];
}) {
  const { pages, differenceMobileMedians: difference, verdict } = results;
  console.log('\nLighthouse runs');
  console.table(
    results.lighthouse.map((r) => ({
      page: r.page,
      preset: r.preset,
      performance: r.performance,
      accessibility: r.accessibility,
      'FCP ms': r.metricsMs.firstContentfulPaint,
      'LCP ms': r.metricsMs.largestContentfulPaint,
      'TBT ms': r.metricsMs.totalBlockingTime,
      CLS: r.cumulativeLayoutShift,
      'failed a11y audits': r.failedAccessibilityAudits.join(', '),
      error: r.runtimeError ?? '',
    })),
  );
  console.log('\nPer page: medians of the runs, script loaded (gzip -9), form in the first HTML');
  console.table(
    Object.entries(pages).flatMap(([page, p]) =>
      presets.map((preset) => {
        const m = p.medians[preset];
        return {
          page,
          preset,
          runs: m.runs,
          performance: m.performance,
          accessibility: m.accessibility,
          'FCP ms': m.firstContentfulPaintMs,
          'LCP ms': m.largestContentfulPaintMs,
          'TBT ms': m.totalBlockingTimeMs,
          CLS: m.cumulativeLayoutShift,
          'script KB gzip': p.script.loadedGzipKB,
          'form in HTML': p.formInHtml.usable ? 'yes' : (p.formInHtml.problem ?? 'no'),
        };
      }),
    ),
  );
  for (const [page, p] of Object.entries(pages)) {
    console.log(`${page} ${p.url}: scripts loaded`);
    for (const script of p.script.loaded) {
      console.log(`  ${script.url}  ${kb(script.bytes)} KB raw, ${script.gzipKB} KB gzip`);
    }
    console.log(
      `  unthrottled: first contentful paint ${p.unthrottled.firstContentfulPaintMs ?? '?'} ms, ` +
        `last script loaded ${p.unthrottled.scriptsLoadedMs ?? '?'} ms`,
    );
  }
  const mark = (met: boolean | undefined) => (met ? 'yes' : 'NO');
  const s = pages.signIn.medians.mobile;
  console.log(
    `\nsign-in − reference (mobile medians): performance ${difference.performance}, ` +
      `TBT ${difference.totalBlockingTimeMs} ms; median of the ` +
      `${results.medianDifferenceWithinRounds.rounds} rounds' own differences: performance ` +
      `${results.medianDifferenceWithinRounds.performance}, ` +
      `TBT ${results.medianDifferenceWithinRounds.totalBlockingTimeMs} ms`,
  );
  console.log('targets (sign-in page, mobile medians):');
  console.log(
    `  performance ${s.performance} ≥ ${TARGETS.performance}: ${mark(verdict.performance)}`,
  );
  console.log(
    `  TBT ${s.totalBlockingTimeMs} ms ≤ ${TARGETS.totalBlockingTimeMs} ms: ${mark(verdict.totalBlockingTime)}`,
  );
  console.log(
    `  performance within ${TARGETS.performanceBehindReference} points of the reference ` +
      `(${difference.performance}): ${mark(verdict.performanceWithinReference)}`,
  );
  console.log(
    `  accessibility ${s.accessibility} = ${TARGETS.accessibility}: ${mark(verdict.accessibility)}`,
  );
  console.log(
    `  script ${pages.signIn.script.loadedGzipKB} KB gzip ≤ ${TARGETS.signInScriptGzipKB} KB: ` +
      mark(verdict.signInScript),
  );
  const form = pages.signIn.formInHtml;
  console.log(
    `  form usable at FCP (in the first HTML response): ` +
      (form.usable ? 'yes' : `NO (${form.problem})`),
  );
  console.log(
    `\nload average ${results.machine.loadavgAtStart.join(' ')} at the start, ` +
      `${results.machine.loadavgAtEnd.join(' ')} at the end`,
  );
  console.log(`written: ${resultsFile}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
