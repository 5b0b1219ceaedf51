// Builds what is out of date: `node scripts/build-once.mjs [server|web]...` (default both).
//
// The server tests run the built server as a process, the browser tests serve the built
// console, and `npm start` serves both: each used to build again, a minute or more on two
// cores for the same sources. Each build keeps the digest of the sources it was made from
// (every file git tracks or would track under its inputs, test files aside) in `.sources`
// beside it; a build whose digest matches the checkout's is reused.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SHARED = ['packages/contract', 'package.json', 'package-lock.json', 'tsconfig.json'];
const PARTS = {
  server: { inputs: ['apps/server'], outputs: ['apps/server/dist'] },
  web: { inputs: ['apps/web'], outputs: ['apps/web/dist', 'apps/web/dist-ssr'] },
};
const NOT_BUILT = /(\.test\.tsx?$|\/src\/test\/)/;

function sourcesDigest(inputs) {
  const files = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...inputs, ...SHARED],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
    .split('\0')
    .filter((file) => file && !NOT_BUILT.test(file) && existsSync(`${root}/${file}`))
    .sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(`${root}/${file}`));
  return hash.digest('hex');
}

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(PARTS);
for (const name of names) {
  const part = PARTS[name];
  if (!part) throw new Error(`build-once: no part "${name}" (server, web)`);
  const digest = sourcesDigest(part.inputs);
  const stamps = part.outputs.map((output) => `${root}/${output}/.sources`);
  const current = stamps.every(
    (stamp) => existsSync(stamp) && readFileSync(stamp, 'utf8') === digest,
  );
  if (current) {
    console.log(`build: ${name} reused (built from these sources, ${digest.slice(0, 12)})`);
    continue;
  }
  execFileSync('npm', ['run', 'build', '--workspace', `apps/${name}`], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const stamp of stamps) writeFileSync(stamp, digest);
}
