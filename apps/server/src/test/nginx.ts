import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports';

/** The configuration operators are given; the tests run nginx from it, not from a copy. */
export const DEPLOY_NGINX_CONF = fileURLToPath(
  new URL('../../../../deploy/nginx.conf', import.meta.url),
);

/** Header the test configuration adds: which process answered (nginx's $upstream_addr). */
export const UPSTREAM_HEADER = 'x-upstream';

export interface TestNginx {
  url: string;
  /** nginx's master process (its workers are its children). */
  pid: number;
  stop(): Promise<void>;
}

function nginxBinary(): string {
  const candidates = [
    ...(process.env.PATH ?? '').split(':').map((dir) => join(dir, 'nginx')),
    '/usr/sbin/nginx',
  ];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there; try the next.
    }
  }
  throw new Error("nginx is not installed: install Debian's nginx (.ci/run does) to run this test");
}

function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  if (!pattern.test(text)) throw new Error(`deploy/nginx.conf no longer has ${what}`);
  return text.replace(pattern, replacement);
}

/**
 * deploy/nginx.conf with its directives unchanged except where it runs: the test's port, the
 * test's server processes as the upstream, files in a folder of its own, and a header naming
 * the process that answered.
 */
export function testNginxConfig(
  template: string,
  options: { port: number; upstreams: string[]; dir: string },
): string {
  const { port, upstreams, dir } = options;
  let conf = template;
  // As root nginx's workers take the `user`; the temp folder is root's, so they stay root.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  conf = replaceOnce(conf, /^user .*;$/m, user, 'a user directive');
  conf = replaceOnce(conf, /^pid .*;$/m, `pid ${dir}/nginx.pid;`, 'a pid directive');
  conf = replaceOnce(conf, /^error_log .*;$/m, `error_log ${dir}/error.log;`, 'an error_log');
  conf = replaceOnce(conf, /access_log .*;/, `access_log ${dir}/access.log;`, 'an access_log');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `  ${kind}_temp_path ${dir}/${kind};`)
    .join('\n');
  conf = replaceOnce(conf, /^http \{$/m, `http {\n${temp}`, 'an http block');
  // The upstream's server lines, one after the other: ours take their place and parameters.
  const servers =
    /^( *)server 127\.0\.0\.1:\d+([^;\n]*);\n(?:\1server 127\.0\.0\.1:\d+[^;\n]*;\n)*/m;
  const [, indent = '', parameters = ''] = servers.exec(conf) ?? [];
  const ours = upstreams.map((address) => `${indent}server ${address}${parameters};\n`).join('');
  conf = replaceOnce(conf, servers, ours, 'upstream servers on 127.0.0.1');
  conf = replaceOnce(conf, /listen 80;/, `listen 127.0.0.1:${port};`, 'listen 80');
  conf = replaceOnce(
    conf,
    /server_name _;/,
    `server_name _;\n    add_header X-Upstream $upstream_addr always;`,
    'server_name _',
  );
  return conf;
}

/** Runs nginx in the foreground from deploy/nginx.conf, in front of `upstreams` (host:port). */
export async function startNginx(upstreams: string[], port?: number): Promise<TestNginx> {
  const binary = nginxBinary();
  const listenPort = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'tc-nginx-'));
  const file = join(dir, 'nginx.conf');
  const template = readFileSync(DEPLOY_NGINX_CONF, 'utf8');
  writeFileSync(file, testNginxConfig(template, { port: listenPort, upstreams, dir }));
  const child = spawn(binary, ['-p', dir, '-c', file, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${listenPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited at start: ${output}`);
    const answered = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
