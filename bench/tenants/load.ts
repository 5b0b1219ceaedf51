/**
 * A closed-loop load of JSON POSTs: `connections` loops, each sending its next request when the
 * previous answer has arrived, for `seconds` or until `total` requests. Latencies are taken per
 * request with the high-resolution clock (autocannon rounds them to whole milliseconds, too
 * coarse for lists answered in one or two). The CPU the server process and its PostgreSQL
 * backends used meanwhile is read from /proc, so a figure can be told from the machine's noise.
 */
import http from 'node:http';
import { cpuSample, cpuUse, type Measured } from '../lib/cpu';
import { round } from './settings';

export interface LoadOptions {
  url: string;
  token: string;
  /** The n-th request's body (n from 0, across all loops). */
  body: (n: number) => unknown;
  connections: number;
  seconds?: number;
  total?: number;
  /** Whose CPU to count (server process, database backends). */
  cpu?: Measured;
}

/** What one run of a load saw, kept raw so that runs can be pooled. */
export interface Sample {
  latencies: number[];
  seconds: number;
  non2xx: number;
  /** The first refused answer, to say why. */
  firstFailure?: string;
  /** CPU milliseconds of the server and of its database's backends during the run. */
  cpuMs?: { server: number; postgres: number };
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  firstFailure?: string;
  cpuMsPerRequest?: { server: number; postgres: number };
}

function post(agent: http.Agent, url: URL, token: string, body: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

export async function runLoad(options: LoadOptions): Promise<Sample> {
  const url = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let next = 0;
  let non2xx = 0;
  let firstFailure: string | undefined;
  const deadline = options.seconds ? performance.now() + options.seconds * 1000 : Infinity;
  const more = () =>
    performance.now() < deadline && (options.total === undefined || next < options.total);
  const cpu = options.cpu;
  const before = cpu && cpuSample();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (more()) {
        const body = JSON.stringify(options.body(next++));
        const sent = performance.now();
        const answer = await post(agent, url, options.token, body);
        latencies.push(performance.now() - sent);
        if (answer.status < 200 || answer.status > 299) {
          non2xx += 1;
          firstFailure ??= `${answer.status} ${answer.text.slice(0, 300)}`;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    latencies,
    seconds,
    non2xx,
    ...(firstFailure && { firstFailure }),
    ...(before && cpu && { cpuMs: cpuMsSince(before, cpu) }),
  };
}

function cpuMsSince(before: ReturnType<typeof cpuSample>, measured: Measured) {
  const use = cpuUse(before, cpuSample(), measured);
  return { server: use.serverMs, postgres: use.databaseMs };
}

/**
 * The figures of one or more runs of the same load, pooled: every request's latency in one
 * distribution, requests per second over the runs' total time, CPU per request over all.
 */
export function summarize(samples: Sample[]): LoadResult {
  const sorted = samples.flatMap((sample) => sample.latencies).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  const cpuMs = (pick: 'server' | 'postgres') =>
    samples.reduce((sum, sample) => sum + (sample.cpuMs?.[pick] ?? 0), 0);
  const perRequest = (ms: number) => round(ms / Math.max(1, sorted.length), 2);
  const firstFailure = samples.find((sample) => sample.firstFailure)?.firstFailure;
  return {
    requests: sorted.length,
    requestsPerSecond: round(sorted.length / seconds, 0),
    latencyMs: {
      p50: round(percentile(sorted, 0.5), 2),
      p90: round(percentile(sorted, 0.9), 2),
      p99: round(percentile(sorted, 0.99), 2),
      max: round(sorted.at(-1) ?? 0, 2),
    },
    non2xx: samples.reduce((sum, sample) => sum + sample.non2xx, 0),
    ...(firstFailure && { firstFailure }),
    ...(samples.some((sample) => sample.cpuMs) && {
      cpuMsPerRequest: {
        server: perRequest(cpuMs('server')),
        postgres: perRequest(cpuMs('postgres')),
      },
    }),
  };
}
