/** The two scenarios, password grants and refresh grants, and what counts as a good answer. */
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import { passwordGrant } from '../lib/server';
import { cpuSnapshot, cpuUse } from './cpu';
import type { RunningServer } from './servers';
import { CLIENT_ID, CONNECTIONS, CORES, FORM, REALM, round, TOKEN_PATH, USER } from './settings';

const passwordBody = new URLSearchParams({
  client_id: CLIENT_ID,
  grant_type: 'password',
  username: USER.email,
  password: USER.password,
}).toString();

const refreshBody = (refreshToken: string) =>
  new URLSearchParams({
    client_id: CLIENT_ID,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  }).toString();

const signIn = async (url: string) => (await passwordGrant(url, REALM, USER)).refresh_token;

/** What the server answered besides 200, and 200s that carried no new refresh token. */
class Answers {
  malformed = 0;
  failures = new Map<string, number>();

  record(status: number, body: string): string | undefined {
    if (status === 200) {
      try {
        const token = (JSON.parse(body) as { refresh_token?: unknown }).refresh_token;
        if (typeof token === 'string' && token.length > 0) return token;
      } catch {
        // counted below
      }
      this.malformed += 1;
      return undefined;
    }
    const key = `${status} ${body.slice(0, 160)}`;
    this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
    return undefined;
  }

  summary() {
    return {
      malformed200: this.malformed,
      failures: Object.fromEntries([...this.failures].sort((a, b) => b[1] - a[1]).slice(0, 5)),
    };
  }
}

/**
 * Refresh tokens rotate: each one is good exactly once, and a reused one revokes its session.
 * The pool holds one live token per session; a request takes the oldest token out and the
 * response puts the session's next token back, so every request presents a fresh, unused
 * token and each session's chain is strictly sequential, as in a real client.
 * (autocannon's per-connection `context` cannot carry the chain: it is reset to
 * `initialContext` each time the request list wraps around, i.e. before every request here.)
 */
export class RefreshPool {
  private tokens: string[] = [];
  starved = 0;

  constructor(tokens: string[]) {
    this.tokens = tokens;
  }

  get size() {
    return this.tokens.length;
  }

  take(): string {
    const token = this.tokens.shift();
    if (token !== undefined) return token;
    this.starved += 1;
    return 'starved-no-fresh-token';
  }

  put(token: string) {
    this.tokens.push(token);
  }

  /**
   * Tops the pool up to two sessions per connection with real password grants. A run ends
   * with one request in flight per connection whose answer is never read: those sessions'
   * chains end there, so the pool is topped up before each run.
   */
  async fill(url: string) {
    while (this.tokens.length < CONNECTIONS * 2) {
      const batch = Math.min(CORES * 2, CONNECTIONS * 2 - this.tokens.length);
      this.tokens.push(...(await Promise.all(Array.from({ length: batch }, () => signIn(url)))));
    }
  }
}

export interface ScenarioResult {
  durationSeconds: number;
  connections: number;
  /** 200 answers per second over the run. */
  perSecond: number;
  /** autocannon's per-second samples (all statuses). */
  requestsPerSecond: { mean: number; min: number; max: number; stddev: number };
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
  total: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  malformed200: number;
  failures: Record<string, number>;
  cpu: ReturnType<typeof cpuUse>;
}

function summarise(
  result: AutocannonResult,
  answers: Answers,
  cpu: ReturnType<typeof cpuUse>,
): ScenarioResult {
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
  );
  const ok = statusCodes['200'] ?? 0;
  const total = Object.values(statusCodes).reduce((sum, n) => sum + n, 0);
  return {
    durationSeconds: result.duration,
    connections: CONNECTIONS,
    perSecond: round(ok / result.duration, 1),
    requestsPerSecond: {
      mean: round(result.requests.mean, 1),
      min: result.requests.min,
      max: result.requests.max,
      stddev: round(result.requests.stddev, 1),
    },
    // autocannon records latencies of 2xx answers only.
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      mean: round(result.latency.mean, 2),
      max: result.latency.max,
    },
    total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    ...answers.summary(),
    cpu,
  };
}

export async function passwordScenario(server: RunningServer, duration: number) {
  const answers = new Answers();
  const before = cpuSnapshot();
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'POST',
        path: TOKEN_PATH,
        headers: FORM,
        body: passwordBody,
        onResponse: (status, body) => void answers.record(status, body),
      },
    ],
  });
  return summarise(result, answers, cpuUse(before, cpuSnapshot(), server));
}

export async function refreshScenario(server: RunningServer, pool: RefreshPool, duration: number) {
  const answers = new Answers();
  const starvedBefore = pool.starved;
  const before = cpuSnapshot();
  const request: AutocannonRequest = {
    method: 'POST',
    path: TOKEN_PATH,
    headers: FORM,
    setupRequest: (req) => ({ ...req, body: refreshBody(pool.take()) }),
    onResponse: (status, body) => {
      const next = answers.record(status, body);
      if (next) pool.put(next);
    },
  };
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration,
    requests: [request],
  });
  const summary = summarise(result, answers, cpuUse(before, cpuSnapshot(), server));
  return { ...summary, starved: pool.starved - starvedBefore };
}

/** Proves the run exercised real rotation: a token works once, and its reuse is refused. */
export async function checkRotation(url: string, pool: RefreshPool) {
  const token = pool.take();
  const post = (refreshToken: string) =>
    fetch(`${url}${TOKEN_PATH}`, {
      method: 'POST',
      headers: FORM,
      body: refreshBody(refreshToken),
    });
  const first = await post(token);
  await first.arrayBuffer();
  const reuse = await post(token);
  const reuseBody = (await reuse.json()) as { error_description?: string };
  return {
    firstUse: first.status,
    reuse: reuse.status,
    reuseError: reuseBody.error_description ?? '',
    ok: first.status === 200 && reuse.status === 400,
  };
}
