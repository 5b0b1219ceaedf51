/**
 * Does a wrong password take as long for an existing account as for a name nobody has?
 * Sends password grants one at a time, alternating a wrong password for the super
 * administrator and a wrong password for unknown names, and prints the latency of each kind.
 *
 *   npx tsx bench/login-timing.ts [--engine postgres|pglite] [--requests 400]
 *
 * Requires a built server (`npm run build`). Brute-force locking is set out of reach, so
 * every attempt is checked as the first ones are.
 */
import { parseArgs } from 'node:util';
import { Cleanups } from './lib/cleanups';
import { freshDatabase, parseEngines } from './lib/database';
import { startServer } from './lib/server';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    requests: { type: 'string', default: '400' },
  },
});
const REQUESTS = Number(args.requests);

async function grant(url: string, username: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      client_id: 'react-client',
      grant_type: 'password',
      username,
      password: 'not-the-password',
    }),
  });
  await response.arrayBuffer();
  if (response.status !== 401) throw new Error(`expected 401, got ${response.status}`);
  return performance.now() - started;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

function summary(name: string, times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const p50 = quantile(sorted, 0.5);
  const line = `${name.padEnd(16)} p10 ${quantile(sorted, 0.1).toFixed(1)} ms  p50 ${p50.toFixed(1)} ms  p90 ${quantile(sorted, 0.9).toFixed(1)} ms`;
  console.log(line);
  return p50;
}

async function main() {
  const [engine] = parseEngines(args.engine);
  const cleanups = new Cleanups();
  try {
    const database = await freshDatabase(engine!, { prefix: 'bench_login_timing' });
    cleanups.add(database.drop);
    const env = {
      ...database.env,
      BRUTE_FORCE_FAILURE_FACTOR: '1000000',
      BRUTE_FORCE_QUICK_LOGIN_MS: '0',
    };
    const server = await startServer({ env, cleanups });
    for (let i = 0; i < 20; i += 1) await grant(server.url, 'admin@example.com'); // warm-up
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      if (i % 2 === 0) known.push(await grant(server.url, 'admin@example.com'));
      else unknown.push(await grant(server.url, `nobody-${i}@example.com`));
    }
    console.log(`${args.engine}, ${REQUESTS} sequential wrong-password grants`);
    const a = summary('existing account', known);
    const b = summary('unknown name', unknown);
    console.log(`difference of medians: ${(a - b).toFixed(1)} ms`);
  } finally {
    await cleanups.run();
  }
}

await main();
