/** Building what the benchmarks run: the server bundle alone, or every workspace. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { root, serverDir, serverMain } from './paths';

/** apps/server/dist/main.js (esbuild, a few seconds). */
export function buildServer() {
  console.error('building apps/server/dist/main.js…');
  const built = spawnSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the server build failed');
}

/** Every workspace (`npm run build`): the server and the web console it serves. */
export function buildAll() {
  console.error('building (npm run build)…');
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed');
}

/** Newest modification time under a folder, in ms; tests do not go into the bundle. */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => {
    if (entry === 'node_modules' || entry === 'test' || entry.endsWith('.test.ts')) return newest;
    return Math.max(newest, newestMtime(join(path, entry)));
  }, 0);
}

/**
 * Whether apps/server/dist/main.js is missing or older than its sources. Rebuilding only then
 * matters: other tests spawn that same file, and rewriting it under them for nothing is best
 * avoided.
 */
export function serverIsStale(): boolean {
  if (!existsSync(serverMain)) return true;
  const sources = [
    join(serverDir, 'src'),
    join(serverDir, 'build.mjs'),
    join(serverDir, 'package.json'),
    join(root, 'packages/contract/src'),
  ];
  return Math.max(...sources.map(newestMtime)) > statSync(serverMain).mtimeMs;
}
