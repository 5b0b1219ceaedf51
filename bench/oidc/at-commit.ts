/**
 * A commit's server, built in a temporary folder: in a working tree others edit meanwhile,
 * `apps/server/dist` holds whatever was saved last, and a figure must name what it measured.
 * The folder gets the commit's server and contract package (`git archive`) and a
 * node_modules of links to the installed packages, but the contract's links to its own copy.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { root } from '../lib/paths';

export interface CommitBuild {
  commit: string;
  /** What to run: the commit's start.cjs, which sizes the thread pool as `npm start` does. */
  script: string;
  remove(): void;
}

function linkPackages(into: string) {
  const installed = join(root, 'node_modules');
  mkdirSync(into);
  for (const entry of readdirSync(installed)) {
    if (entry === '@tc') continue;
    symlinkSync(join(installed, entry), join(into, entry));
  }
  mkdirSync(join(into, '@tc'));
  symlinkSync('../../packages/contract', join(into, '@tc', 'contract'));
}

export function buildAtCommit(revision: string): CommitBuild {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${revision}^{commit}`], {
    cwd: root,
  })
    .toString()
    .trim();
  const dir = mkdtempSync(join(os.tmpdir(), `bench-oidc-${commit.slice(0, 7)}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    console.error(`building the server of ${commit.slice(0, 7)} in ${dir}…`);
    const archive = spawnSync('git', ['archive', commit, 'apps/server', 'packages/contract'], {
      cwd: root,
      maxBuffer: 1 << 30,
    });
    if (archive.status !== 0) throw new Error(`git archive: ${archive.stderr.toString()}`);
    execFileSync('tar', ['-x', '-C', dir], { input: archive.stdout });
    linkPackages(join(dir, 'node_modules'));
    const serverDir = join(dir, 'apps/server');
    const built = spawnSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`the build of ${commit} failed`);
    return { commit, script: join(serverDir, 'start.cjs'), remove };
  } catch (error) {
    remove();
    throw error;
  }
}
