import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, engine, freePort, SUPER_ADMIN_PASSWORD } from './test/harness';

// `WORKERS=N npm start`: the built server (global-setup.ts builds it) as `npm start` runs it.
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', SEED_DEMO: 'false', ...env },
  });
  const run = { stdout: '', stderr: '', code: undefined as number | null | undefined };
  child.stdout.on('data', (chunk) => (run.stdout += chunk));
  child.stderr.on('data', (chunk) => (run.stderr += chunk));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      run.code = code;
      resolve();
    }),
  );
  return { child, run, exited };
}

/** One request on a connection of its own: each connection is accepted by one of the workers. */
const get = (port: number, path: string, requestId: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, agent: false, headers: { 'x-request-id': requestId } },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    // A connection nobody answers (as one handed to a crashing worker would be) fails here.
    req.setTimeout(10_000, () => req.destroy(new Error('no answer')));
    req.end();
  });

describe.runIf(engine === 'pglite')('WORKERS on the embedded database', () => {
  it('is refused with one line and exit code 1', async () => {
    const { run, exited } = start({ WORKERS: '2', DATA_DIR: 'memory://', PORT: '0' });
    await exited;
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('WORKERS=2 needs DATABASE_URL');
  }, 60_000);
});

describe.runIf(engine === 'postgres')('WORKERS=2 on PostgreSQL', () => {
  it('serves from two processes, replaces one killed, and stops them all on SIGTERM', async () => {
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const port = await freePort();
    const { child, run, exited } = start({
      WORKERS: '2',
      PORT: String(port),
      DATABASE_URL: database.url,
      BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN_PASSWORD,
      MFA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      // Each answered request is logged with the process id that answered it.
      LOG_LEVEL: 'info',
    });
    cleanups.push(async () => {
      if (run.code === undefined) child.kill('SIGKILL');
      await exited;
    });

    // The primary prints the banner before its workers listen: wait until both answer.
    const pidsOf = (prefix: string) => {
      const pids = new Set<number>();
      for (const line of run.stdout.split('\n')) {
        // The banner, and a last line still being written, are not log entries.
        if (!line.startsWith('{') || !line.endsWith('}')) continue;
        const entry = JSON.parse(line) as { pid?: number; reqId?: string; msg?: string };
        if (entry.reqId?.startsWith(prefix) && entry.msg === 'request completed') {
          pids.add(entry.pid!);
        }
      }
      return pids;
    };
    const deadline = Date.now() + 90_000;
    let round = 0;
    /** Probes until `done` holds of the processes that answered probes named `prefix`. */
    const statuses: number[] = [];
    const probeUntil = async (prefix: string, done: (pids: Set<number>) => boolean) => {
      statuses.length = 0;
      for (;;) {
        expect(run.code, run.stderr).toBeUndefined();
        expect(Date.now()).toBeLessThan(deadline);
        round += 1;
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            get(port, '/healthz', `${prefix}-${round}-${i}`).catch(() => 0),
          ),
        );
        statuses.push(...answers);
        // Answered requests are in the log once their lines are written: look again shortly.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const pids = pidsOf(prefix);
        if (done(pids)) return pids;
      }
    };
    const first = await probeUntil('probe', (pids) => pids.size >= 2);
    expect(run.stdout).toContain('processes: 2');
    expect(first.has(child.pid!)).toBe(false);

    // A worker that crashes is replaced: the survivor answers meanwhile, then a new process.
    const [victim] = first;
    process.kill(victim!, 'SIGKILL');
    // Right away, before the primary has even noticed: connections must not go to the dead.
    await probeUntil('after-kill', (pids) => pids.size > 0 && !pids.has(victim!));
    // No connection is lost or left hanging: the survivor accepts every one.
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const replaced = await probeUntil('replaced', (pids) => [...pids].some((p) => !first.has(p)));
    expect(replaced.has(victim!)).toBe(false);
    expect(run.stdout).toContain(`worker ${victim} stopped (SIGKILL); starting another`);

    child.kill('SIGTERM');
    await exited;
    expect(run.code).toBe(0);
  }, 120_000);
});
