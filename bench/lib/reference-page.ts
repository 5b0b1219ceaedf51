/**
 * The reference page of bench/web.ts: a React sign-in form built and served the way the
 * console's sign-in page is (Vite production build with @vitejs/plugin-react, HTML rendered on
 * the server with renderToString and hydrated by its script, Brotli/gzip copies, Fastify and
 * @fastify/static with the same cache headers), with React and react-dom as its only packages.
 * What the sign-in page costs beyond it is the sign-in page's own.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { build } from 'vite';
import { SignInForm } from '../reference-page/sign-in-form';
import type { Cleanups } from './cleanups';
import { root } from './paths';
import { startServer } from './server';

const sources = join(root, 'bench/reference-page');
/** Build output; `dist/` folders are ignored by git. */
export const referenceDist = join(sources, 'dist');
const APP_MARKER = '<!--app-->';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

/**
 * Brotli (best quality) and gzip (level 9) copies of the text files over 1 KB, next to them,
 * as the console's build writes them; done after the form is rendered into index.html.
 */
async function precompress(dir: string) {
  const files = filesUnder(dir).filter((file) => /\.(js|css|html|svg|json)$/.test(file));
  await Promise.all(
    files.map(async (file) => {
      const body = readFileSync(file);
      if (body.length <= 1024) return;
      const params = {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      };
      writeFileSync(`${file}.br`, await brotli(body, { params }));
      writeFileSync(`${file}.gz`, await gzipAsync(body, { level: 9 }));
    }),
  );
}

/** Builds bench/reference-page into its dist/ (a second or two) and renders the form into it. */
export async function buildReferencePage() {
  console.error('building the reference page (bench/reference-page)…');
  await build({
    configFile: false,
    root: sources,
    logLevel: 'warn',
    mode: 'production',
    plugins: [react()],
    build: { outDir: referenceDist, emptyOutDir: true },
  });
  const page = join(referenceDist, 'index.html');
  const html = readFileSync(page, 'utf8');
  if (!html.includes(APP_MARKER)) throw new Error(`${page} has no ${APP_MARKER} marker`);
  const form = renderToString(createElement(SignInForm));
  writeFileSync(
    page,
    html.replace(APP_MARKER, () => form),
  );
  await precompress(referenceDist);
}

/** The reference page's own server process on a free port; its address. */
export async function startReferenceServer(cleanups: Cleanups): Promise<string> {
  const server = await startServer({
    script: join(sources, 'server.ts'),
    nodeArgs: ['--import', 'tsx'],
    host: 'localhost',
    name: 'the reference page server',
    env: { REFERENCE_ROOT: referenceDist },
    cleanups,
  });
  return server.url;
}
