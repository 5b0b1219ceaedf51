import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports';

// The built server (global-setup.ts builds it), run as `npm start` runs it.
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface ServerProcess {
  url: string;
  /** For tests that signal it themselves and read how it ended. */
  child: ChildProcess;
  /** Its standard output and error so far. */
  output(): string;
  /** Its exit code, once it has exited. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
  /** Ends it at once (SIGKILL), as a crash would: no request in flight is finished. */
  kill(): Promise<void>;
}

/**
 * Starts the built server as its own process and resolves once it listens and is the one
 * answering on its port (its /healthz names the instance id it was given): another process
 * may take the port freePort picked before the server binds it.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const instance = randomUUID();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'false',
      INSTANCE_ID: instance,
      ...env,
    },
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('is running on')) resolve();
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const health = (await (await fetch(`${url}/healthz`)).json()) as { instance?: string };
  if (health.instance !== instance) {
    child.kill('SIGKILL');
    throw new Error(`another process answers on port ${port}, not the server started: ${output}`);
  }
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return {
    url,
    child,
    output: () => output,
    exited,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}
