/** Figures of the mixed benchmark's runs: summaries, tables, and the verdicts on the targets. */
import type { Engine } from '../lib/database';
import { table } from '../lib/table';
import type { LoadResult, Tally } from './load';
import { round, type Targets } from './settings';
import type { SoloShape } from './solo';

export interface Latency {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
}

export interface RunSummary {
  run: string;
  consoles: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: Latency;
  statuses: Record<string, number>;
  problems: Record<string, number>;
  /** CPU per answered request: the server (or the floor), its database, the load generator. */
  cpuMsPerRequest: { server: number; database: number | null; bench: number };
  /** % of one core over the window (200 = both cores of a 2-core machine). */
  cpuPct: {
    server: number;
    database: number | null;
    postgresShared: number | null;
    bench: number;
    other: number;
    machineBusy: number;
  };
  byKind: Record<string, Latency & { sharePct: number }>;
  byLabel: Record<
    string,
    Latency & { statuses: Record<string, number>; errorSamples: Record<string, string> }
  >;
  /** The machine's load average as the run started: a busy machine lowers every figure. */
  loadAverage1m?: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

function latency(ms: number[], statuses: Map<number, number>): Latency {
  const sorted = [...ms].sort((a, b) => a - b);
  let non2xx = 0;
  for (const [status, n] of statuses) if (status < 200 || status >= 300) non2xx += n;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? 0),
    non2xx,
  };
}

function merge(tallies: Tally[]) {
  const statuses = new Map<number, number>();
  const problems = new Map<string, number>();
  for (const tally of tallies) {
    for (const [status, n] of tally.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
    for (const [problem, n] of tally.problems)
      problems.set(problem, (problems.get(problem) ?? 0) + n);
  }
  return { ms: tallies.flatMap((tally) => tally.ms), statuses, problems };
}

export function summarize(run: string, result: LoadResult, engine: Engine): RunSummary {
  const all = merge([...result.tallies.values()]);
  const kinds = new Map<string, Tally[]>();
  for (const tally of result.tallies.values()) {
    kinds.set(tally.kind, [...(kinds.get(tally.kind) ?? []), tally]);
  }
  const perRequest = (ms: number) => round(ms / Math.max(1, result.requests), 3);
  const pct = (ms: number) => round((ms / result.cpu.wallMs) * 100, 0);
  const pg = engine === 'postgres';
  return {
    run,
    consoles: result.consoles,
    requests: result.requests,
    requestsPerSecond: round(result.requestsPerSecond, 0),
    latencyMs: latency(all.ms, all.statuses),
    statuses: Object.fromEntries(all.statuses),
    problems: Object.fromEntries(all.problems),
    cpuMsPerRequest: {
      server: perRequest(result.cpu.serverMs),
      database: pg ? perRequest(result.cpu.databaseMs) : null,
      bench: perRequest(result.cpu.benchMs),
    },
    cpuPct: {
      server: pct(result.cpu.serverMs),
      database: pg ? pct(result.cpu.databaseMs) : null,
      postgresShared: pg ? pct(result.cpu.postgresSharedMs) : null,
      bench: pct(result.cpu.benchMs),
      other: pct(result.cpu.otherMs),
      machineBusy: round(result.cpu.machineBusyPct, 0),
    },
    byKind: Object.fromEntries(
      [...kinds].map(([kind, tallies]) => {
        const merged = merge(tallies);
        const sharePct = round((merged.ms.length / Math.max(1, result.requests)) * 100);
        return [kind, { ...latency(merged.ms, merged.statuses), sharePct }];
      }),
    ),
    byLabel: Object.fromEntries(
      [...result.tallies]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([label, tally]) => [
          label,
          {
            ...latency(tally.ms, tally.statuses),
            statuses: Object.fromEntries(tally.statuses),
            errorSamples: Object.fromEntries(tally.errorSamples),
          },
        ]),
    ),
  };
}

const text = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : value.toLocaleString('en-US');
const statusText = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, n]) => `${status === '0' ? 'error' : status}×${n}`)
    .join(' ') || '';

export function runsTable(runs: RunSummary[]): string {
  return table([
    [
      'run',
      'consoles',
      'req/s',
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'non-2xx',
      'by status',
      'srv ms/req',
      'db ms/req',
      'gen ms/req',
      'busy %',
    ],
    ...runs.map((r) => [
      r.run,
      String(r.consoles),
      text(r.requestsPerSecond),
      text(r.latencyMs.p50),
      text(r.latencyMs.p90),
      text(r.latencyMs.p99),
      text(r.latencyMs.non2xx),
      statusText(r.statuses),
      text(r.cpuMsPerRequest.server),
      text(r.cpuMsPerRequest.database),
      text(r.cpuMsPerRequest.bench),
      text(r.cpuPct.machineBusy),
    ]),
  ]);
}

export function kindsTable(run: RunSummary): string {
  const rows = Object.entries(run.byLabel).map(([label, l]) => [
    label,
    text(l.n),
    text(round((l.n / Math.max(1, run.requests)) * 100)),
    text(l.p50),
    text(l.p99),
    text(l.max),
    text(l.non2xx),
  ]);
  const kinds = Object.entries(run.byKind).map(([kind, l]) => [
    `all ${kind}`,
    text(l.n),
    text(l.sharePct),
    text(l.p50),
    text(l.p99),
    text(l.max),
    text(l.non2xx),
  ]);
  return table([['request', 'n', '%', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx'], ...kinds, ...rows]);
}

export function soloTable(shapes: SoloShape[]): string {
  return table([
    ['shape', 'n', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx'],
    ...shapes.map((s) => [
      s.shape,
      text(s.n),
      text(s.p50),
      text(s.p99),
      text(s.max),
      text(s.non2xx),
    ]),
  ]);
}

export interface Verdict {
  target: string;
  figure: string;
  met: boolean;
}

/** Each target of the scenario against what this run measured (absent runs are not judged). */
export function verdicts(
  targets: Targets,
  runs: RunSummary[],
  solo: SoloShape[] | undefined,
): Verdict[] {
  const out: Verdict[] = [];
  const find = (run: string, consoles: number) =>
    runs.find((r) => r.run === run && r.consoles === consoles);
  const clean = (r: RunSummary) => r.latencyMs.non2xx === 0 && Object.keys(r.problems).length === 0;
  const mix50 = find('mix', 50);
  if (targets.mixRpsAt50 !== undefined && mix50) {
    out.push({
      target: `mix ≥ ${targets.mixRpsAt50} req/s at 50 consoles, no non-2xx`,
      figure: `${text(mix50.requestsPerSecond)} req/s`,
      met: mix50.requestsPerSecond >= targets.mixRpsAt50 && clean(mix50),
    });
  }
  const mix10 = find('mix', 10);
  if (targets.mixP99At10Ms !== undefined && mix10) {
    out.push({
      target: `mix p99 ≤ ${targets.mixP99At10Ms} ms at 10 consoles, no non-2xx`,
      figure: `${mix10.latencyMs.p99} ms`,
      met: mix10.latencyMs.p99 <= targets.mixP99At10Ms && clean(mix10),
    });
  }
  if (targets.pagesPctOfFloor !== undefined) {
    for (const real of runs.filter((r) => r.run === 'users pages')) {
      const floor = find('users pages (floor)', real.consoles);
      if (!floor) continue;
      const pct = round((real.requestsPerSecond / Math.max(1, floor.requestsPerSecond)) * 100);
      out.push({
        target: `random users pages ≥ ${targets.pagesPctOfFloor} % of the floor, ${real.consoles} consoles`,
        figure: `${pct} %`,
        met: pct >= targets.pagesPctOfFloor,
      });
    }
  }
  if (solo && targets.soloSortP99Ms !== undefined) {
    const sorts = solo.filter((s) => s.judgedAsSort);
    const worst = sorts.reduce((a, b) => (b.p99 > a.p99 ? b : a), sorts[0]!);
    out.push({
      target: `every users sort × direction alone, p99 ≤ ${targets.soloSortP99Ms} ms`,
      figure: `worst ${worst.p99} ms (${worst.shape})`,
      met: sorts.every((s) => s.p99 <= targets.soloSortP99Ms! && s.non2xx === 0),
    });
  }
  if (solo && targets.soloShapeP99Ms !== undefined) {
    const worst = solo.reduce((a, b) => (b.p99 > a.p99 ? b : a), solo[0]!);
    out.push({
      target: `every shape alone, p99 ≤ ${targets.soloShapeP99Ms} ms`,
      figure: `worst ${worst.p99} ms (${worst.shape})`,
      met: solo.every((s) => s.p99 <= targets.soloShapeP99Ms! && s.non2xx === 0),
    });
  }
  return out;
}

/** One line per request and non-2xx status: the first such answer, shortened. */
export function errorLines(run: RunSummary): string[] {
  return Object.entries(run.byLabel).flatMap(([label, l]) =>
    Object.entries(l.errorSamples).map(
      ([status, text]) => `  ${label} ${status === '0' ? 'error' : status}: ${text.slice(0, 160)}`,
    ),
  );
}
