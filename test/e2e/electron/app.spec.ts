import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { findElectronBinary } from '../../../src/cli/electron-binary';
import { electronSuite } from '../../helpers/electron-required';

const suite = electronSuite(findElectronBinary(), process.env);
const electronBinary = suite.run ? suite.binary : null;
if ('skip' in suite) console.log(`electron suite skipped: ${suite.skip}`);

test.describe('the real Electron shell', () => {
  test.skip('skip' in suite, 'skip' in suite ? suite.skip : '');
  // Where the suite is required (CI), a missing binary fails every test with the reason.
  test.beforeAll(() => {
    if ('fail' in suite) throw new Error(suite.fail);
  });

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

  test('syncs the demo account, exports a list through the save dialog and keeps a log', async ({}, testInfo) => {
    test.setTimeout(120_000);
    const dataDir = mkdtempSync(join(tmpdir(), 'quayside-electron-'));
    const exportPath = testInfo.outputPath('containers.csv');
    const app = await electron.launch({
      executablePath: electronBinary!,
      args: [resolve(import.meta.dirname, '../../../out/main/index.js')],
      env: { ...process.env, QUAYSIDE_DATA_DIR: dataDir },
    });
    try {
      // The save dialog answers with the test's path (a person would pick it).
      await app.evaluate(({ dialog }, path) => {
        dialog.showSaveDialog = () => Promise.resolve({ canceled: false, filePath: path });
      }, exportPath);
      const page = await app.firstWindow();
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByText('Up to date')).toBeVisible({ timeout: 90_000 });
      await expect(page.getByRole('link', { name: /Arriving in the next 7 days/ })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('electron-dashboard.png') });

      await nav.getByRole('link', { name: 'Containers' }).click();
      const count = page.getByRole('status', { name: 'Row count' });
      await expect(count).toHaveText(/^\d+ containers$/);
      const total = Number((await count.textContent())!.split(' ')[0]);
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Export CSV' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Exported' })).toContainText(
        `Exported ${total} containers`,
      );
      const lines = readFileSync(exportPath, 'utf8').trim().split('\r\n');
      expect(lines).toHaveLength(total + 1);
      await page.screenshot({ path: testInfo.outputPath('electron-exported.png') });
      expect(existsSync(join(dataDir, 'logs', 'quayside.log'))).toBe(true);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
