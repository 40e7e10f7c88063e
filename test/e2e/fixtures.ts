import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page, type Response } from '@playwright/test';
import type { ReadsAsideMode } from '../../src/core/reads/reads-aside';
import type { Channel } from '../../src/shared/ipc';
import type { SyncStatus } from '../../src/shared/types';
import { startTestHost, type TestHost } from './host/server';

/** Each test gets its own data folder and its own host running the real core. */
export const test = base.extend<{ host: TestHost; exportPath: string; readsAside: ReadsAsideMode }>({
  // Where the lists' reads and Ctrl+K's search run (core/reads): a spec may send them to the
  // worker thread with `test.use({ readsAside: 'always' })` (the demo account alone is too small for it).
  readsAside: ['auto', { option: true }],
  // Where the save dialog "puts" an export: the test's own output folder.
  exportPath: async ({}, use, testInfo) => {
    await use(testInfo.outputPath('export.csv'));
  },
  host: async ({ exportPath, readsAside }, use, testInfo) => {
    // QUAYSIDE_E2E_RENDERER points at another build of the renderer (e.g. to see a test fail
    // against the code before a fix); by default the one `electron-vite build` wrote.
    const rendererDir = process.env.QUAYSIDE_E2E_RENDERER;
    const host = await startTestHost({
      dataDir: testInfo.outputPath('data'),
      chooseExportPath: () => Promise.resolve(exportPath),
      readsAside,
      ...(rendererDir ? { rendererDir } : {}),
    });
    await use(host);
    await host.close();
  },
});

/**
 * Resolves with the first sync status (the current one, then each `sync:status` event core
 * sends) that `reached` accepts. Event-driven, no polling; the test's own timeout bounds it.
 */
export function syncStatus(
  host: TestHost,
  reached: (status: SyncStatus) => boolean,
  refuse?: (status: SyncStatus) => string | null,
): Promise<SyncStatus> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const check = (status: SyncStatus): void => {
      if (settled) return;
      const refusal = refuse?.(status);
      if (refusal) {
        settled = true;
        unsubscribe();
        reject(new Error(refusal));
      } else if (reached(status)) {
        settled = true;
        unsubscribe();
        resolve(status);
      }
    };
    // Subscribed before the current status is read, so a change in between is not missed.
    const unsubscribe = host.core.events.subscribe((event, payload) => {
      if (event === 'sync:status') check(payload as SyncStatus);
    });
    Promise.resolve(host.core.handlers['sync:status'](undefined)).then(check, (error: unknown) => {
      settled = true;
      unsubscribe();
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/** Waits until the account's first sync has landed in the local database. */
export async function waitForFirstSync(host: TestHost): Promise<void> {
  await test.step('wait for the first sync to land', () =>
    syncStatus(
      host,
      (status) => status.lastSyncedAt !== null && status.state !== 'syncing',
      (status) =>
        status.state === 'failed' && !status.lastSyncedAt
          ? `The first sync failed: ${status.error ?? 'no reason given'}`
          : null,
    ));
}

/**
 * The answer to the page's next call on `channel` (through the test host's IPC endpoint) whose
 * argument `matches` accepts. Ask for it before the action that makes the call, await it after.
 */
export function ipcAnswer(page: Page, channel: Channel, matches?: (arg: unknown) => boolean): Promise<Response> {
  return page.waitForResponse((response) => {
    const request = response.request();
    if (!request.url().endsWith('/__host/ipc') || request.method() !== 'POST') return false;
    const body = request.postDataJSON() as { channel?: unknown; arg?: unknown } | null;
    return body?.channel === channel && (matches?.(body.arg) ?? true);
  });
}

/** Waits until every row the grid renders shows its data (none says "Loading"), at least `min` of them. */
export async function expectRowsLoaded(grid: Locator, min = 1): Promise<void> {
  // A new sort or filter keeps the old rows on screen until the new ones are read: wait for them.
  await expect(grid).not.toHaveAttribute('aria-busy', 'true');
  await expect(grid.locator('[role="row"][data-index]').nth(min - 1)).toBeVisible();
  await expect(grid.locator('[role="row"][data-index][aria-label="Loading"]')).toHaveCount(0);
}

export { expect };

/** Chooses an item of a list's Export menu: Export CSV, Export Excel or Print…. */
export async function chooseExport(page: Page, item: 'Export CSV' | 'Export Excel' | 'Print…'): Promise<void> {
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByRole('menu', { name: 'Export this list' }).getByRole('menuitem', { name: item }).click();
}

/** The page's serious and critical WCAG 2.1 A/AA violations (axe), each with a few of its elements: none is the bar. */
export async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}
