import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The dev server needs inline styles and a websocket for hot reload; the CSP in
// index.html is strict, so it is relaxed for `electron-vite dev` only, never in a build.
function relaxCspForDevServer(): Plugin {
  return {
    name: 'quayside:relax-csp-for-dev',
    apply: 'serve',
    transformIndexHtml(html) {
      return html
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* http://localhost:*");
    },
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The core's worker threads are entries of their own: out/main/read-worker.js (src/core/reads),
      // out/main/page-worker.js (src/core/sync/pages-aside.ts) and out/main/export-worker.js
      // (src/core/export/export-aside.ts).
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          'read-worker': resolve('src/core/reads/read-worker.ts'),
          'page-worker': resolve('src/core/sync/page-worker.ts'),
          'export-worker': resolve('src/core/export/export-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require anything but 'electron': bundle everything
      // into one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    plugins: [svelte(), relaxCspForDevServer()],
    build: {
      outDir: resolve('out/renderer'),
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
