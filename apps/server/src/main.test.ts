import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, engine, freePort } from './test/harness';

// The built server (global-setup.ts builds it), run as `npm start` runs it.
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the server; resolves when it exits. Once it is up, `whileUp` runs against it and
 * then the server is stopped with SIGTERM, as a process manager would.
 */
function runServer(
  env: Record<string, string>,
  whileUp?: (out: string) => Promise<void>,
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    });
    let stdout = '';
    let stderr = '';
    let up = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (up || !stdout.includes('is running on')) return;
      up = true;
      // The banner is printed in one write; give it a moment, then use the server and stop it.
      setTimeout(() => {
        void (whileUp?.(stdout) ?? Promise.resolve()).finally(() => child.kill('SIGTERM'));
      }, 50);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function expectOneClearLine(run: Run, ...words: string[]) {
  expect(run.code).not.toBe(0);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  for (const word of words) expect(lines[0]).toContain(word);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe.runIf(engine === 'pglite')(
  'configuration errors stop start-up with one clear line',
  () => {
    it('PORT=abc', async () => {
      expectOneClearLine(await runServer({ PORT: 'abc' }), 'PORT');
    });

    it('DATABASE_URL=nonsense', async () => {
      expectOneClearLine(await runServer({ DATABASE_URL: 'nonsense' }), 'DATABASE_URL');
    });

    it('an unreachable database', async () => {
      const port = await freePort();
      const run = await runServer({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/none` });
      expectOneClearLine(run, 'Cannot reach the database', `127.0.0.1:${port}`);
    });
  },
);

describe('a restart keeps the data', () => {
  it('seeds once, prints the generated password once, and signs in with it after a restart', async () => {
    const env: Record<string, string> = { SEED_DEMO: 'true' };
    if (engine === 'postgres') {
      const database = await createPostgresDatabase({ empty: true });
      cleanups.push(database.drop);
      env.DATABASE_URL = database.url;
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), 'tc-data-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      env.DATA_DIR = dataDir;
    }
    env.PORT = String(await freePort());
    const first = await runServer(env);
    expect(first.stdout).toContain(`is running on http://localhost:${env.PORT}`);
    expect(first.stdout).toContain('super administrator: admin@example.com');
    const password = /shown this once\): (\S+)/.exec(first.stdout)?.[1];
    expect(password).toBeTruthy();
    expect(first.stdout).toContain('demo tenant');

    let signInStatus = 0;
    const second = await runServer(env, async () => {
      const response = await fetch(
        `http://127.0.0.1:${env.PORT}/realms/master/protocol/openid-connect/token`,
        {
          method: 'POST',
          body: new URLSearchParams({
            client_id: 'react-client',
            grant_type: 'password',
            username: 'admin@example.com',
            password: password!,
          }),
        },
      );
      signInStatus = response.status;
    });
    expect(second.stdout).toContain('is running on');
    expect(signInStatus).toBe(200);
    expect(second.stdout).not.toContain('shown this once');
    expect(second.stdout).not.toContain('demo tenant');
    expect(second.code).toBe(0);
    // Two starts of the built server, the first migrating and seeding an embedded database:
    // on a loaded machine that alone can take most of a minute.
  }, 120_000);
});
