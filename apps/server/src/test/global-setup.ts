import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { prepareTemplate } from './database-templates';

/**
 * Runs once per project before its files: builds the server and the console unless their
 * builds are current (once per run, whichever project comes first), since tests run the
 * built server as a process, `npm start` itself, and serve the built console's files; and
 * makes the project's migrated template database (database-templates.ts).
 */
export default async function setup(project: TestProject) {
  if (!process.env.TC_TEST_SERVER_BUILT) {
    execFileSync(process.execPath, ['scripts/build-once.mjs'], {
      cwd: fileURLToPath(new URL('../../../..', import.meta.url)),
      stdio: 'inherit',
    });
    process.env.TC_TEST_SERVER_BUILT = '1';
  }
  const engine = project.config.env?.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  const folder = mkdtempSync(join(tmpdir(), 'tc-test-templates-'));
  const remove = await prepareTemplate(engine, folder);
  return async () => {
    await remove();
    rmSync(folder, { recursive: true, force: true });
  };
}
