/** One Lighthouse run (performance and accessibility) of a page in Debian's Chromium. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { CHROMIUM, CHROMIUM_FLAGS } from './page-scripts';

export type Preset = 'mobile' | 'desktop';

export interface LighthouseRun {
  page: string;
  preset: Preset;
  /** Which round of the benchmark it belongs to; each round runs every page once per preset. */
  round?: number;
  performance: number;
  accessibility: number;
  metricsMs: {
    firstContentfulPaint: number;
    largestContentfulPaint: number;
    totalBlockingTime: number;
    speedIndex: number;
  };
  cumulativeLayoutShift: number;
  failedAccessibilityAudits: string[];
  /** Set when Lighthouse itself failed the run (e.g. NO_NAVSTART): it has no scores. */
  runtimeError?: string | undefined;
}

/**
 * Mobile is Lighthouse's default configuration: a mid-range phone simulated by Lantern (slow
 * 4G, 4× CPU slowdown) from a trace taken unthrottled. `lhrDir` keeps the whole report.
 */
export async function runLighthouse(
  page: string,
  url: string,
  preset: Preset,
  lhrDir?: string,
): Promise<LighthouseRun> {
  const chrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: [...CHROMIUM_FLAGS, '--headless=new'],
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
    if (lhrDir) {
      mkdirSync(lhrDir, { recursive: true });
      const name = `${page}-${preset}-${new Date().toISOString().replaceAll(':', '')}.json`;
      writeFileSync(join(lhrDir, name), JSON.stringify(result.lhr));
    }
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const metric = (id: string) => Math.round(audits[id]?.numericValue ?? 0);
    const accessibilityIds = new Set(categories.accessibility?.auditRefs.map((ref) => ref.id));
    return {
      page,
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
      failedAccessibilityAudits: Object.values(audits)
        .filter((audit) => audit.score === 0 && accessibilityIds.has(audit.id))
        .map((audit) => audit.id),
      runtimeError: result.lhr.runtimeError?.message,
    };
  } finally {
    chrome.kill();
  }
}

const median = (values: number[]) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Medians of the runs Lighthouse completed (its scores vary; its documentation judges the median). */
export function medians(runs: LighthouseRun[]) {
  const done = runs.filter((run) => !run.runtimeError);
  const of = (pick: (run: LighthouseRun) => number) => median(done.map(pick));
  return {
    runs: done.length,
    failedRuns: runs.length - done.length,
    performance: of((r) => r.performance),
    accessibility: of((r) => r.accessibility),
    firstContentfulPaintMs: of((r) => r.metricsMs.firstContentfulPaint),
    largestContentfulPaintMs: of((r) => r.metricsMs.largestContentfulPaint),
    totalBlockingTimeMs: of((r) => r.metricsMs.totalBlockingTime),
    cumulativeLayoutShift: of((r) => r.cumulativeLayoutShift),
  };
}

/**
 * The median over rounds of `page − other` within each round (both runs completed): each pair
 * ran back to back, so a change of machine load during the run cancels out within a pair.
 */
export function medianRoundDifferences(runs: LighthouseRun[], page: string, other: string) {
  const rounds = new Map<number, Partial<Record<string, LighthouseRun>>>();
  for (const run of runs) {
    if (run.runtimeError || run.round === undefined) continue;
    rounds.set(run.round, { ...rounds.get(run.round), [run.page]: run });
  }
  const pairs = [...rounds.values()].flatMap((round) => {
    const [a, b] = [round[page], round[other]];
    return a && b ? [[a, b] as const] : [];
  });
  return {
    rounds: pairs.length,
    performance: median(pairs.map(([a, b]) => a.performance - b.performance)),
    totalBlockingTimeMs: median(
      pairs.map(([a, b]) => a.metricsMs.totalBlockingTime - b.metricsMs.totalBlockingTime),
    ),
  };
}
