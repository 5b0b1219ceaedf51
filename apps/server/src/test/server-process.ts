import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './harness';

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

/** Starts the built server as its own process and resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'false',
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
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}
