/** Where things are, wherever a benchmark is started from (the root or the bench workspace). */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const serverDir = join(root, 'apps/server');
/** The built server, as `npm start` runs it (through start.cjs) and the test suite spawns it. */
export const serverMain = join(serverDir, 'dist/main.js');
export const resultsDir = join(root, 'bench/results');

/** A path as the repository names it, for messages and result files. */
export const fromRoot = (path: string) =>
  path.startsWith(root) ? path.slice(root.length + 1) : path;
