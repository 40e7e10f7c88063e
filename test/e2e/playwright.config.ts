import { defineConfig } from '@playwright/test';

import { chromiumArgs, chromiumPath } from './chromium';

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
    {
      name: 'renderer',
      testMatch: 'renderer/**/*.spec.ts',
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        // Dates in the screenshots and assertions read the same on any machine.
        timezoneId: 'UTC',
        locale: 'en-US',
        launchOptions: {
          executablePath: chromiumPath,
          args: chromiumArgs,
        },
      },
    },
    {
      name: 'electron',
      testMatch: 'electron/**/*.spec.ts',
    },
  ],
});
