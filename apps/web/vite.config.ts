import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// By path: the config is loaded by Node, which cannot import the contract package's TypeScript.
import { AUTH_PAGE_PATHS } from '../../packages/contract/src/auth-page.js';
import { AUTH_PAGE_FILES } from './src/features/auth/auth-page-files.js';

// During `vite dev` the API and the identity provider live on the Fastify server (same origin in production).
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:8080';

const authPagesPattern = `^(${Object.values(AUTH_PAGE_PATHS).join('|')})([/?]|$)`;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli (at its best quality, too slow to do per request) and gzip copies of the build's text
 * files, next to them. The server sends these instead of compressing itself (static-web.ts).
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    // The server-side renderer (dist-ssr) is imported by the server, never sent.
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    async writeBundle({ dir = 'dist' }, bundle) {
      const files = Object.keys(bundle).filter((file) => /\.(js|css|html|svg|json)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const body = await readFile(join(dir, file));
          if (body.length <= 1024) return;
          const params = {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          };
          await writeFile(join(dir, `${file}.br`), await brotli(body, { params }));
          await writeFile(join(dir, `${file}.gz`), await gzipAsync(body, { level: 9 }));
        }),
      );
    },
  };
}

type Manifest = Record<string, { file: string; imports?: string[] }>;

/**
 * For the server, beside the renderer: each sign-in page's script chunks beyond those auth.html
 * already loads (dist-ssr/auth-page-assets.json: page name → URLs), so it can preload them with
 * the page instead of the entry asking for them once it runs. From the client build's manifest.
 */
function authPageAssets(): Plugin {
  return {
    name: 'auth-page-assets',
    apply: (_config, env) => env.command === 'build' && Boolean(env.isSsrBuild),
    async generateBundle() {
      const manifestFile = fileURLToPath(new URL('dist/.vite/manifest.json', import.meta.url));
      if (!existsSync(manifestFile)) return;
      const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
      const closure = (key: string, into = new Set<string>()) => {
        if (into.has(key)) return into;
        into.add(key);
        for (const next of manifest[key]?.imports ?? []) closure(next, into);
        return into;
      };
      const entry = closure('auth.html');
      const assets = Object.fromEntries(
        Object.entries(AUTH_PAGE_FILES).map(([page, file]) => [
          page,
          [...closure(`src/features/auth/components/${file}.tsx`)]
            .filter((key) => !entry.has(key) && manifest[key])
            .map((key) => `/${manifest[key]!.file}`),
        ]),
      );
      this.emitFile({
        type: 'asset',
        fileName: 'auth-page-assets.json',
        source: JSON.stringify(assets, null, 2),
      });
    },
  };
}

/**
 * Two pages: the console (index.html) and the sign-in pages (auth.html, its own small entry
 * that hydrates what the server rendered). The SSR build (`vite build --ssr
 * src/auth-render.tsx`) writes the renderer the server imports into dist-ssr, beside dist so
 * that it is never served; the contract is TypeScript, so it is bundled into it, while the
 * other packages stay imports resolved from node_modules.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), precompress(), authPageAssets()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/realms': { target: apiTarget, changeOrigin: false },
      // The sign-in pages are the server's, rendered from its build (`npm run build` once):
      // their addresses, the hosted sign-in's, and that build's script.
      [authPagesPattern]: { target: apiTarget, changeOrigin: false },
      '/login-actions': { target: apiTarget, changeOrigin: false },
      '/assets': { target: apiTarget, changeOrigin: false },
    },
  },
  ssr: { noExternal: ['@tc/contract'] },
  build: isSsrBuild
    ? { outDir: 'dist-ssr', emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        // Read by the SSR build (authPageAssets); a hidden folder, which the server never serves.
        manifest: true,
        rolldownOptions: {
          input: {
            index: fileURLToPath(new URL('index.html', import.meta.url)),
            auth: fileURLToPath(new URL('auth.html', import.meta.url)),
          },
        },
      },
}));
