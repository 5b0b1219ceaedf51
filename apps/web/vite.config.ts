import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// During `vite dev` the API and the identity provider live on the Fastify server (same origin in production).
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:8080';

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

/**
 * Two pages: the console (index.html) and the sign-in pages (auth.html, its own small entry
 * that hydrates what the server rendered). The SSR build (`vite build --ssr
 * src/auth-render.tsx`) writes the renderer the server imports into dist-ssr, beside dist so
 * that it is never served; the contract is TypeScript, so it is bundled into it, while the
 * other packages stay imports resolved from node_modules.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), precompress()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/realms': { target: apiTarget, changeOrigin: false },
    },
  },
  ssr: { noExternal: ['@tc/contract'] },
  build: isSsrBuild
    ? { outDir: 'dist-ssr', emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        rolldownOptions: {
          input: {
            index: fileURLToPath(new URL('index.html', import.meta.url)),
            auth: fileURLToPath(new URL('auth.html', import.meta.url)),
          },
        },
      },
}));
