/**
 * The one way the benchmarks run a server: as its own process, so the load generator never
 * shares its event loop, started the way the test suite starts the built server
 * (apps/server/src/test/server-process.ts): a free port on loopback, a minimal environment,
 * ready once it answers /readyz, stopped with SIGTERM (SIGKILL if it hangs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { freePort } from '../../apps/server/src/test/ports';
import type { Cleanups } from './cleanups';
import { root, serverMain } from './paths';

export interface BenchServer {
  /** Where to send requests: `http://<host>:<port>`. */
  url: string;
  port: number;
  child: ChildProcess;
  /** The last of what it printed, for an error message. */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The database (DATABASE_URL or DATA_DIR) and any other setting; they win over the defaults. */
  env?: Record<string, string>;
  /** Node's own arguments, e.g. `--cpu-prof`, or `--import tsx` for a TypeScript script. */
  nodeArgs?: string[];
  /** What to run: apps/server/dist/main.js unless another build (or start.cjs) is measured. */
  script?: string;
  /** The address it listens on; the browser benchmarks need `localhost` for `demo.localhost`. */
  host?: string;
  /** In messages: "the postgres server". */
  name?: string;
  /** Stops it with these, also on Ctrl-C. */
  cleanups?: Cleanups;
}

/** Admin password of the super administrator the server creates at its first start. */
export const BOOTSTRAP_ADMIN_PASSWORD = 'Bench-admin-1!';
// The demo seed on PGlite took 90-120 s on a machine shared with a test run: wait long enough.
const READY_TIMEOUT_MS = 300_000;
const KEPT_OUTPUT = 20_000;

export { freePort };

export async function startServer(options: StartOptions = {}): Promise<BenchServer> {
  const { host = '127.0.0.1', name = 'the server', script = serverMain } = options;
  const port = await freePort();
  const url = `http://${host}:${port}`;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script], {
    cwd: root,
    env: {
      // Nothing else leaks in from the shell: a DATABASE_URL there must not pick the engine.
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: String(port),
      HOST: host,
      PUBLIC_URL: url,
      SEED_DEMO: 'false',
      BOOTSTRAP_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      // A token that outlives any run, so no benchmark has to refresh it on the way.
      ACCESS_TOKEN_TTL: '3600',
      NODE_ENV: 'production',
      // The benchmarks sign in from one address far faster than a person would.
      TOKEN_RATE_LIMIT: '1000000',
      TOKEN_REALM_RATE_LIMIT: '1000000',
      // Every attempt counts as a failure until its password is checked, so one user's
      // concurrent sign-ins would trip the quick-login and failure-count locks.
      BRUTE_FORCE_QUICK_LOGIN_MS: '0',
      BRUTE_FORCE_FAILURE_FACTOR: '1000000',
      // How start.cjs sizes argon2's thread pool, when the caller chose a size.
      ...(process.env.UV_THREADPOOL_SIZE && { UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE }),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Always read what it prints: a full pipe would block the server mid-run.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-KEPT_OUTPUT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    })());
  options.cleanups?.add(stop);

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited during start-up:\n${output}`);
    }
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, child, output: () => output, stop };
}

/** The token endpoint's answer for a password grant; throws unless 200. */
export async function passwordGrant(
  url: string,
  realm: string,
  user: { email: string; password: string },
): Promise<{ access_token: string; refresh_token: string; tenantId?: string }> {
  const response = await fetch(`${url}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'react-client',
      grant_type: 'password',
      username: user.email,
      password: user.password,
    }),
  });
  if (response.status !== 200) {
    throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as { access_token: string; refresh_token: string };
}
