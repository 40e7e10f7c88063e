/**
 * A damaged local copy in the app: a local copy that cannot be opened gets one plain sentence and
 * the offer to move it aside (kept, renamed `<name>.unreadable-<time>`) and start fresh; a
 * newer Quayside's copy asks for an update and moves only on an explicit second confirmation.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test, waitForFirstSync } from '../fixtures';

test('a damaged local copy: one sentence, moved aside on request and kept, and a fresh copy fills from the sync', async ({
  page,
  host,
}, testInfo) => {
  const file = testInfo.outputPath('data', 'demo', 'demo.sqlite');
  mkdirSync(dirname(file), { recursive: true });
  const garbage = 'This is not a database: a spreadsheet saved over it by mistake.\n'.repeat(64);
  writeFileSync(file, garbage);

  await page.goto(host.url);
  const problem = page.getByTestId('database-problem');
  await expect(problem.getByRole('heading', { name: 'The local copy cannot be opened' })).toBeVisible();
  await expect(problem).toContainText(
    `The local copy at ${file} is not a Quayside database, or it is damaged. Quayside has not changed it.`,
  );
  await expect(problem).toContainText('demo.sqlite.unreadable-…');
  await expect(page.getByText('file is not a database')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('damaged-offer.png') });

  await problem.getByRole('button', { name: 'Move it aside and start fresh' }).click();
  const moved = page.getByTestId('moved-aside');
  await expect(moved).toContainText(`moved to ${file}.unreadable-`);
  await expect(problem).toHaveCount(0);
  await waitForFirstSync(host);
  await page.getByRole('link', { name: 'Shipments' }).first().click();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('damaged-started-fresh.png') });

  const aside = readdirSync(dirname(file)).filter((name) => name.startsWith('demo.sqlite.unreadable-'));
  expect(aside).toHaveLength(1);
  expect(readFileSync(join(dirname(file), aside[0]!), 'utf8')).toBe(garbage);
});

test("a newer Quayside's copy: update Quayside; moved aside only after a second, explicit confirmation", async ({
  page,
  host,
}, testInfo) => {
  const file = testInfo.outputPath('data', 'demo', 'demo.sqlite');
  mkdirSync(dirname(file), { recursive: true });
  const future = new Database(file);
  future.pragma('user_version = 77');
  future.close();

  await page.goto(host.url);
  const problem = page.getByTestId('database-problem');
  await expect(problem.getByRole('heading', { name: 'Update Quayside to open this account' })).toBeVisible();
  await expect(problem).toContainText('was written by a newer version of Quayside (schema 77');
  await expect(problem.getByRole('button', { name: 'Move it aside and start fresh' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('newer-version.png') });

  await problem.getByRole('button', { name: 'Move it aside anyway…' }).click();
  await expect(problem).toContainText('Start a fresh copy without the newer one?');
  await problem.getByRole('button', { name: 'Cancel' }).click();
  expect(existsSync(file)).toBe(true);
  await problem.getByRole('button', { name: 'Move it aside anyway…' }).click();
  await problem.getByRole('button', { name: 'Yes, move it aside and start fresh' }).click();
  await expect(page.getByTestId('moved-aside')).toContainText(`moved to ${file}.unreadable-`);
  const aside = readdirSync(dirname(file)).filter((name) => name.startsWith('demo.sqlite.unreadable-'));
  expect(aside).toHaveLength(1);
  const kept = new Database(join(dirname(file), aside[0]!), { readonly: true });
  expect(kept.pragma('user_version', { simple: true })).toBe(77);
  kept.close();
});
