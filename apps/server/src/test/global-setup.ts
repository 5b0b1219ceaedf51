import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The start-up tests run the built server as a real process, so build it once first. */
export default function setup() {
  execFileSync(process.execPath, ['build.mjs'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: 'inherit',
  });
}
