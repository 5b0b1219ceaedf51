import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendProblem } from './problem';

/** Paths the console never owns: unknown ones keep their problem+json 404. */
const SERVER_PREFIXES = ['/api', '/realms', '/healthz', '/readyz'];

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The built console (apps/web/dist), found like the migrations folder: walking up from this
 * file, so it works from src/ (tests) and from dist/main.js (built server).
 */
export function findWebDist(from = fileURLToPath(import.meta.url)): string | undefined {
  let dir = dirname(from);
  for (let i = 0; i < 6; i += 1) {
    for (const candidate of [join(dir, 'apps', 'web', 'dist'), join(dir, 'web', 'dist')]) {
      if (existsSync(join(candidate, 'index.html'))) return candidate;
    }
    dir = dirname(dir);
  }
  return undefined;
}

export interface StaticWebOptions {
  /** The built console; defaults to the one found beside the server; null: not built. */
  root?: string | null | undefined;
}

const isServerPath = (pathname: string) =>
  SERVER_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));

/**
 * Serves the console at `/`: files of the build as they are (hashed `/assets/` cached for a
 * year, everything else revalidated), and index.html for any other page a browser asks for,
 * so client routes such as /dashboard/users or /newpassword?token=… survive a reload.
 *
 * @fastify/static does the serving: it picks the build's precompressed `.br`/`.gz` sibling with
 * a linear Accept-Encoding parser, answers conditional and HEAD requests, and refuses hidden
 * files and paths leaving the build. With `wildcard: false` it routes exactly the files present
 * at start-up (a deploy restarts the server), so everything else reaches the fallback below.
 */
export async function registerStaticWeb(
  app: FastifyInstance,
  { root = findWebDist() }: StaticWebOptions = {},
): Promise<void> {
  if (!root) app.log.warn('the web console is not built (apps/web/dist): run `npm run build`');

  const notBuilt = (reply: FastifyReply) =>
    sendProblem(reply, { status: 404, code: 'service.console_not_built' });

  // Its own scope, so the `sendFile` decorator cannot clash with the docs' copy of the plugin.
  await app.register(async (scope) => {
    const build = root ? resolve(root) : undefined;
    if (build) {
      await scope.register(fastifyStatic, {
        root: build,
        prefix: '/',
        wildcard: false,
        // The compressed copies are chosen by Accept-Encoding, never addressed by URL; the
        // sign-in pages' template is served filled in, by the sign-in pages' routes.
        globIgnore: ['**/*.br', '**/*.gz', 'auth.html'],
        preCompressed: true,
        cacheControl: false,
        setHeaders: (reply, path) => {
          const immutable = relative(build, path).split(sep)[0] === 'assets';
          reply.header('cache-control', immutable ? IMMUTABLE : 'no-cache');
        },
      });
    }

    scope.get('/*', { schema: { hide: true } }, async (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      if (isServerPath(pathname)) return reply.callNotFound();
      const accept = String(request.headers.accept ?? '').toLowerCase();
      const wantsPage = pathname === '/' || accept.includes('text/html');
      if (!build) return wantsPage ? notBuilt(reply) : reply.callNotFound();
      // A missing asset is a 404, never the page: a stale chunk must fail loudly.
      if (!wantsPage || pathname.startsWith('/assets/')) return reply.callNotFound();
      return reply.sendFile('index.html');
    });
  });
}
