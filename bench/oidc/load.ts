/**
 * Load: N clients, each with its own state (a browser, a refresh chain), each doing one
 * operation after another for a given time; and autocannon for requests that need no state.
 * Both end as the same figures: completed operations per second, latency of the completed
 * ones, failures by step and answer, and where the CPU went.
 */
import autocannon from 'autocannon';
import { addCpu, cpuBetween, cpuSample, type CpuSample, type Watched } from './cpu';
import { Failure } from './flows';
import { percentile, round } from './settings';

export interface Segment {
  connections: number;
  ok: number;
  latencies: number[];
  failures: Map<string, number>;
  cpu: CpuSample;
  /** autocannon's own percentiles, when it ran the load. */
  autocannon?: { p50: number; p90: number; p99: number; mean: number; max: number };
}

function fail(failures: Map<string, number>, error: unknown) {
  const key =
    error instanceof Failure ? error.message : `exception: ${String(error).slice(0, 160)}`;
  failures.set(key, (failures.get(key) ?? 0) + 1);
}

/** Seconds the clients run before the measured window opens, so that they are out of step. */
const SETTLE_SECONDS = 1;

/**
 * Every client runs `operation` back to back; what completes inside the measured window
 * (`seconds` long, after a settling second) counts. All clients start at once, so without
 * the settling second the first operations would all end together, and the operations
 * still under way when the window closes, whose work was done inside it, would be lost:
 * with sign-ins of half a second in windows of five, that would be several per cent, more
 * for the slower operation. They finish after it, so no chain is left with an answer unread.
 */
export async function runClients<S>(
  watched: Watched,
  clients: S[],
  operation: (client: S) => Promise<unknown>,
  seconds: number,
): Promise<Segment> {
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  let ok = 0;
  let before: CpuSample | undefined;
  let after: CpuSample | undefined;
  const opened = setTimeout(() => (before = cpuSample(watched)), SETTLE_SECONDS * 1000);
  const closed = setTimeout(() => (after = cpuSample(watched)), (SETTLE_SECONDS + seconds) * 1000);
  const inWindow = (at: number) => before !== undefined && after === undefined && at >= before.at;
  try {
    await Promise.all(
      clients.map(async (client) => {
        while (after === undefined) {
          const started = performance.now();
          try {
            await operation(client);
            const ended = performance.now();
            if (inWindow(ended)) {
              latencies.push(ended - started);
              ok += 1;
            }
          } catch (error) {
            if (inWindow(performance.now())) fail(failures, error);
          }
        }
      }),
    );
  } finally {
    clearTimeout(opened);
    clearTimeout(closed);
  }
  return {
    connections: clients.length,
    ok,
    latencies,
    failures,
    cpu: cpuBetween(before!, after!),
  };
}

/** A fixed request on `connections` connections, by autocannon; 200 is success. */
export async function runAutocannon(
  watched: Watched,
  url: string,
  request: { method: string; path: string; headers: Record<string, string>; body: string },
  connections: number,
  seconds: number,
  expect: (body: string) => boolean,
): Promise<Segment> {
  const failures = new Map<string, number>();
  let ok = 0;
  const before = cpuSample(watched);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        ...request,
        onResponse: (status, body) => {
          if (status === 200 && expect(body)) ok += 1;
          else fail(failures, new Error(`${status} ${body.slice(0, 160)}`));
        },
      },
    ],
  });
  const cpu = cpuBetween(before, cpuSample(watched));
  if (result.errors + result.timeouts > 0) {
    failures.set('connection errors and timeouts', result.errors + result.timeouts);
  }
  const { p50, p90, p99, mean, max } = result.latency;
  // autocannon's clock is its duration; CPU's is the wall time around it: the same run.
  return {
    connections,
    ok,
    latencies: [],
    failures,
    cpu: { ...cpu, at: result.duration * 1000 },
    autocannon: { p50, p90, p99, mean, max },
  };
}

export interface Figures {
  seconds: number;
  connections: number;
  ok: number;
  perSecond: number;
  failed: number;
  failures: Record<string, number>;
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
  /** % of one core (200 % = a 2-core machine), and CPU ms per completed operation. */
  cpu: {
    serverPct: number;
    serverLoopPct: number;
    postgresPct: number;
    benchPct: number;
    otherPct: number;
    serverMsPerOp: number;
    postgresMsPerOp: number;
    benchMsPerOp: number;
  };
}

/** One scenario's figures from its segments (ABBA halves, or a single run). */
export function figures(segments: Segment[]): Figures {
  const cpu = segments.map((s) => s.cpu).reduce(addCpu);
  const ok = segments.reduce((sum, s) => sum + s.ok, 0);
  const failures = new Map<string, number>();
  for (const s of segments) {
    for (const [key, n] of s.failures) failures.set(key, (failures.get(key) ?? 0) + n);
  }
  const seconds = cpu.at / 1000;
  const sorted = segments.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const fromCannon = segments[0]?.autocannon;
  const latencyMs =
    fromCannon && segments.length === 1
      ? fromCannon
      : {
          p50: round(percentile(sorted, 50)),
          p90: round(percentile(sorted, 90)),
          p99: round(percentile(sorted, 99)),
          mean: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length), 2),
          max: round(sorted.at(-1) ?? 0),
        };
  const pct = (nanos: number) => round((nanos / 1e9 / seconds) * 100, 0);
  const perOp = (nanos: number) => (ok > 0 ? round(nanos / 1e6 / ok, 2) : 0);
  return {
    seconds: round(seconds, 2),
    connections: segments[0]?.connections ?? 0,
    ok,
    perSecond: round(ok / seconds, 1),
    failed: [...failures.values()].reduce((a, b) => a + b, 0),
    failures: Object.fromEntries([...failures].sort((a, b) => b[1] - a[1]).slice(0, 5)),
    latencyMs,
    cpu: {
      serverPct: pct(cpu.server),
      serverLoopPct: pct(cpu.serverLoop),
      postgresPct: pct(cpu.postgres),
      benchPct: pct(cpu.bench),
      otherPct: pct(Math.max(0, cpu.machine - cpu.server - cpu.postgres - cpu.bench)),
      serverMsPerOp: perOp(cpu.server),
      postgresMsPerOp: perOp(cpu.postgres),
      benchMsPerOp: perOp(cpu.bench),
    },
  };
}
