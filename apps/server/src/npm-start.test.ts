import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDataDir } from './test/database-templates';
import { engine, SUPER_ADMIN_PASSWORD } from './test/harness';
import { freePort } from './test/ports';

// `npm start` itself, as a person or a supervisor runs it, stopped by a signal sent to npm
// alone (not to its process group). Its build step finds the builds current (the global
// set-up made them), so npm starts the server at once.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let dataDir: string;
beforeAll(() => {
  dataDir = pgliteDataDir('tc-npm-start-');
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Whether a process of this id still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, condition: () => boolean | Promise<boolean>) {
  for (const deadline = Date.now() + 60_000; !(await condition());) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(engine === 'pglite')('npm start stopped by a signal to npm', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL'] as const)(
    '%s stops the server too, and frees its port',
    async (signal) => {
      const port = await freePort();
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')),
      );
      const npm = spawn('npm', ['start', '--silent'], {
        cwd: ROOT,
        env: {
          ...env,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          SEED_DEMO: 'false',
          BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN_PASSWORD,
          LOG_LEVEL: 'warn',
        },
      });
      let output = '';
      npm.stdout.on('data', (chunk) => (output += chunk));
      npm.stderr.on('data', (chunk) => (output += chunk));
      const npmExited = new Promise((resolve) => npm.once('exit', resolve));
      await until('the server is up', () => output.includes('is running on'));
      const server = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(npm.pid)], {
        encoding: 'utf8',
      })
        .split('\n')
        .find((line) => line.includes('start.cjs'));
      expect(server, output).toBeDefined();
      const serverPid = Number(server!.trim().split(/\s+/)[0]);

      process.kill(npm.pid!, signal);
      await npmExited;
      await until(`the server (${serverPid}) has exited`, () => !alive(serverPid));
      const answer = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => 'refused');
      expect(answer).toBe('refused');
    },
    120_000,
  );
});
