import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';

// Two projects, one run and one report (test-results/vitest.json, totalled by .ci/summary.mjs):
// `node` for core, main, CLI and sandbox tests; `renderer` for Svelte components and renderer
// modules in happy-dom, compiled for the browser as electron-vite compiles them.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    pool: 'forks',
    // A fork per core: the main process only gathers results, so vitest's default (one core left
    // for it) would run a 2-core machine's files one at a time.
    maxWorkers: '100%',
    testTimeout: 20_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        // vite-plugin-svelte compiles for the client (not SSR) once `browser` leads the conditions.
        plugins: [svelte(), svelteTesting()],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.ts'],
          environment: 'happy-dom',
          // Dates read the same on any machine (the Playwright specs pin the same locale and zone).
          env: { LC_ALL: 'en-US', TZ: 'UTC' },
          setupFiles: ['test/renderer/setup.ts'],
        },
      },
    ],
  },
});
