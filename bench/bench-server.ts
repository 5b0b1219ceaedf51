/**
 * The built server (apps/server/dist/main.js) as a separate process on a given PostgreSQL
 * database, and a password sign-in against it: shared by the benchmarks that seed a tenant
 * with bench/dashboard-seed.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../apps/server/src/test/harness';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface BenchServer {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts the server; `env` names the database (`DATABASE_URL` or `DATA_DIR`) and any other
 * setting, `nodeArgs` go to Node (e.g. `--cpu-prof`).
 */
export async function startBenchServer(
  env: Record<string, string>,
  { nodeArgs = [] }: { nodeArgs?: string[] } = {},
): Promise<BenchServer> {
  const port = await freePort();
  const main = join(root, 'apps/server/dist/main.js');
  const child = spawn(process.execPath, [...nodeArgs, main], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'false',
      BOOTSTRAP_ADMIN_PASSWORD: 'Bench-admin-1!',
      LOG_LEVEL: 'warn',
      ACCESS_TOKEN_TTL: '3600',
      NODE_ENV: 'production',
      // The benchmarks sign in from one address far faster than a person would.
      TOKEN_RATE_LIMIT: '1000000',
      TOKEN_REALM_RATE_LIMIT: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('is running on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
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
