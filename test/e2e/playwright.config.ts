import { defineConfig } from '@playwright/test';

import { chromiumArgs, chromiumPath } from './chromium';

/**
 * The renderer suite runs at two window sizes: the app's usual one and the most common laptop
 * screen (1366×768), where lists and pages must still read right. Screenshots land per project.
 */
const rendererProjects = [
  { name: 'renderer', viewport: { width: 1280, height: 800 } },
  { name: 'renderer-1366', viewport: { width: 1366, height: 768 } },
];

export default defineConfig({
  testDir: '.',
  outputDir: '../../test-results/playwright',
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  // Each test waits for its own demo sync first; two run at once on a 2-core machine.
  timeout: 60_000,
  // The most one state may take to show on a loaded 2-core machine (a detail read, a list page).
  // Assertions wait on state and return as soon as it shows: this is a bound, never a wait.
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json', { outputFile: '../../test-results/playwright.json' }]],
  use: {
    screenshot: 'on',
    trace: 'retain-on-failure',
  },
  projects: [
    ...rendererProjects.map(({ name, viewport }) => ({
      name,
      testMatch: 'renderer/**/*.spec.ts',
      use: {
        browserName: 'chromium' as const,
        viewport,
        // Dates in the screenshots and assertions read the same on any machine.
        timezoneId: 'UTC',
        locale: 'en-US',
        launchOptions: {
          executablePath: chromiumPath,
          args: chromiumArgs,
        },
      },
    })),
    {
      name: 'electron',
      testMatch: 'electron/**/*.spec.ts',
    },
  ],
});
