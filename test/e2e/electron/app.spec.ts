import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { findElectronBinary } from '../../../src/cli/electron-binary';

const electronBinary = findElectronBinary();
const reason =
  'the Electron binary is not installed (npm ci denies its download); run `npx install-electron` on a machine with internet to run this suite';
if (!electronBinary) console.log(`electron suite skipped: ${reason}`);

test.describe('the real Electron shell', () => {
  test.skip(!electronBinary, reason);

  test('starts one secure window that shows the app and where its data lives', async ({}, testInfo) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quayside-electron-'));
    const app = await electron.launch({
      executablePath: electronBinary!,
      args: [resolve(import.meta.dirname, '../../../out/main/index.js')],
      env: { ...process.env, QUAYSIDE_DATA_DIR: dataDir },
    });
    try {
      const page = await app.firstWindow();
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
      await expect(page.getByRole('contentinfo', { name: 'Application status' })).toContainText(dataDir);
      expect(page.url()).toMatch(/^app:\/\/quayside\//);
      const exposed = await page.evaluate(() => Object.keys(window.api).sort());
      expect(exposed).toEqual(['invoke', 'on']);
      expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
      await page.screenshot({ path: testInfo.outputPath('electron-window.png') });
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
