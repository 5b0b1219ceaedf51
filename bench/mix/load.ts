/**
 * Closed loops: every console sends its next request when its previous answer has arrived, on
 * its own keep-alive connection. After a warm-up the window opens; an answer counts when it
 * arrives inside the window. CPU is read from /proc when the window opens and when it closes.
 */
import { cpuSample, cpuUse, type CpuSample, type CpuUse, type Measured } from '../lib/cpu';
import type { Answer, Console, Target } from './console';
import type { Kind, Op } from './requests';

export interface Tally {
  kind: Kind;
  ms: number[];
  statuses: Map<number, number>;
  /** 2xx answers that were wrong (an empty page before the last, an unreadable body). */
  problems: Map<string, number>;
  /** The first answer of each non-2xx status, shortened: what went wrong, for the report. */
  errorSamples: Map<number, string>;
}

export interface LoadResult {
  consoles: number;
  requests: number;
  requestsPerSecond: number;
  cpu: CpuUse;
  tallies: Map<string, Tally>;
}

const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

export const newTally = (kind: Kind): Tally => ({
  kind,
  ms: [],
  statuses: new Map(),
  problems: new Map(),
  errorSamples: new Map(),
});

export function record(tally: Tally, answer: Answer, problem: string | undefined) {
  tally.ms.push(answer.ms);
  count(tally.statuses, answer.status);
  if (problem) count(tally.problems, problem);
  const ok = answer.status >= 200 && answer.status < 300;
  if (!ok && !tally.errorSamples.has(answer.status)) {
    tally.errorSamples.set(answer.status, answer.text.slice(0, 300));
  }
}

/** Sends one request and reads its answer: the list's total, an edit's row. */
export async function answerOf(c: Console, op: Op) {
  const answer =
    op.kind === 'refresh' ? await c.refresh() : await c.send(op.method, op.path, op.body);
  let problem: string | undefined;
  if (answer.status >= 200 && answer.status < 300 && op.after) {
    try {
      problem = op.after(answer);
    } catch {
      problem = 'unreadable answer';
    }
  }
  return { answer, problem };
}

export async function closedLoop(
  consoles: Console[],
  target: Target,
  next: (c: Console) => Op,
  options: { warmupS: number; durationS: number; measured: Measured },
): Promise<LoadResult> {
  const tallies = new Map<string, Tally>();
  let windowStart = Infinity;
  let windowEnd = Infinity;
  let stopped = false;
  let before: CpuSample | undefined;
  let after: CpuSample | undefined;
  const opened = setTimeout(() => {
    before = cpuSample();
    windowStart = before.at;
  }, options.warmupS * 1000);
  const closed = setTimeout(
    () => {
      after = cpuSample();
      windowEnd = after.at;
      stopped = true;
    },
    (options.warmupS + options.durationS) * 1000,
  );
  try {
    for (const c of consoles) c.use(target);
    await Promise.all(
      consoles.map(async (c) => {
        while (!stopped) {
          const op = next(c);
          const { answer, problem } = await answerOf(c, op);
          const at = performance.now();
          if (at < windowStart || at > windowEnd) continue;
          let tally = tallies.get(op.label);
          if (!tally) {
            tally = newTally(op.kind);
            tallies.set(op.label, tally);
          }
          record(tally, answer, problem);
        }
      }),
    );
  } finally {
    clearTimeout(opened);
    clearTimeout(closed);
    for (const c of consoles) c.close();
  }
  const cpu = cpuUse(before!, after!, options.measured);
  const requests = [...tallies.values()].reduce((sum, tally) => sum + tally.ms.length, 0);
  return {
    consoles: consoles.length,
    requests,
    requestsPerSecond: requests / (cpu.wallMs / 1000),
    cpu,
    tallies,
  };
}
