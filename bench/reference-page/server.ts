/**
 * The reference page's server for bench/web.ts: Fastify and @fastify/static with the options
 * and cache headers the console's server uses (precompressed Brotli/gzip copies chosen by
 * Accept-Encoding, hashed assets cached for a year, the page revalidated), and nothing else.
 *
 *   REFERENCE_ROOT=bench/reference-page/dist PORT=9000 HOST=localhost node --import tsx bench/reference-page/server.ts
 */
import { relative, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastify from 'fastify';

const root = resolve(process.env.REFERENCE_ROOT ?? '');
const IMMUTABLE = 'public, max-age=31536000, immutable';

const app = fastify();
app.get('/readyz', async () => 'ok');
await app.register(fastifyStatic, {
  root,
  prefix: '/',
  wildcard: false,
  globIgnore: ['**/*.br', '**/*.gz'],
  preCompressed: true,
  cacheControl: false,
  setHeaders: (reply, path) => {
    const immutable = relative(root, path).split(sep)[0] === 'assets';
    reply.header('cache-control', immutable ? IMMUTABLE : 'no-cache');
  },
});
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
