import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './problem';

/** Paths the console never owns: unknown ones keep their problem+json 404. */
const SERVER_PREFIXES = ['/api', '/realms', '/healthz', '/readyz'];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt']);
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

interface CachedFile {
  mtimeMs: number;
  size: number;
  type: string;
  etag: string;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/** A file of the build, read once and compressed once (hashed assets never change). */
class FileCache {
  private readonly files = new Map<string, CachedFile>();

  constructor(readonly root: string) {}

  async get(file: string): Promise<CachedFile | undefined> {
    let info;
    try {
      info = await stat(file);
    } catch {
      return undefined;
    }
    if (!info.isFile()) return undefined;
    const cached = this.files.get(file);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached;

    const identity = await readFile(file);
    const ext = extname(file).toLowerCase();
    const entry: CachedFile = {
      mtimeMs: info.mtimeMs,
      size: info.size,
      type: TYPES[ext] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(identity).digest('base64url').slice(0, 27)}"`,
      identity,
    };
    if (COMPRESSIBLE.has(ext) && identity.length > 1024) {
      // Precompressed files of the build win; otherwise compress once here.
      entry.br =
        (await readFile(`${file}.br`).catch(() => undefined)) ??
        brotliCompressSync(identity, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: 9,
            [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
          },
        });
      entry.gzip =
        (await readFile(`${file}.gz`).catch(() => undefined)) ?? gzipSync(identity, { level: 9 });
    }
    this.files.set(file, entry);
    return entry;
  }

  /** The absolute file for a URL path, or undefined if it would leave the root or is hidden. */
  resolve(pathname: string): string | undefined {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0') || decoded.split('/').some((s) => s.startsWith('.'))) {
      return undefined;
    }
    const file = resolve(this.root, `.${decoded}`);
    return file.startsWith(this.root + sep) ? file : undefined;
  }
}

function pickEncoding(request: FastifyRequest, file: CachedFile): 'br' | 'gzip' | undefined {
  const accepted = String(request.headers['accept-encoding'] ?? '').toLowerCase();
  const allows = (name: string) =>
    new RegExp(`(^|,)\\s*${name}\\s*(;\\s*q=(?!0(\\.0*)?\\s*(,|$))[\\d.]+)?\\s*(,|$)`).test(
      accepted,
    );
  if (file.br && allows('br')) return 'br';
  if (file.gzip && allows('gzip')) return 'gzip';
  return undefined;
}

function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: CachedFile,
  cacheControl: string,
) {
  reply.header('cache-control', cacheControl).header('etag', file.etag).type(file.type);
  if (file.br || file.gzip) reply.header('vary', 'accept-encoding');
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  const encoding = pickEncoding(request, file);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? file[encoding] : file.identity);
}

export interface StaticWebOptions {
  /** The built console; defaults to the one found beside the server; null: not built. */
  root?: string | null | undefined;
}

/**
 * Serves the console at `/`: files of the build as they are (hashed `/assets/` cached for a
 * year, everything else revalidated), and index.html for any other page a browser asks for,
 * so client routes such as /dashboard/users or /newpassword?token=… survive a reload.
 */
export async function registerStaticWeb(
  app: FastifyInstance,
  { root = findWebDist() }: StaticWebOptions = {},
): Promise<void> {
  const cache = root ? new FileCache(resolve(root)) : undefined;
  if (!root) app.log.warn('the web console is not built (apps/web/dist): run `npm run build`');

  const notBuilt = (reply: FastifyReply) =>
    sendProblem(reply, {
      status: 404,
      detail: 'The web console is not built. Run `npm run build` and restart the server.',
    });

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (SERVER_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`))) {
      return reply.callNotFound();
    }
    const wantsPage = pathname === '/' || /text\/html/i.test(String(request.headers.accept ?? ''));
    if (!cache) return wantsPage ? notBuilt(reply) : reply.callNotFound();

    if (pathname !== '/' && pathname !== '/index.html') {
      const path = cache.resolve(pathname);
      const file = path ? await cache.get(path) : undefined;
      if (file) {
        const immutable = pathname.startsWith('/assets/');
        return sendFile(request, reply, file, immutable ? IMMUTABLE : 'no-cache');
      }
    }
    // A missing asset is a 404, never the page: a stale chunk must fail loudly.
    if (!wantsPage || pathname.startsWith('/assets/')) return reply.callNotFound();
    const index = await cache.get(join(cache.root, 'index.html'));
    return index ? sendFile(request, reply, index, 'no-cache') : notBuilt(reply);
  });
}
