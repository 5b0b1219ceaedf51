import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// During `vite dev` the API and the identity provider live on the Fastify server (same origin in production).
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/realms': { target: apiTarget, changeOrigin: false },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
