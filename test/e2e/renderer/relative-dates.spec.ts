/**
 * The containers' Last free day filter as a forwarder uses it on Monday morning, at 1366×768:
 * "Next 5 days" is one choice; a custom day half typed ("12/03/202") does not reach the list and
 * says why, and applies once whole; the view saved with "Next 5 days" keeps it as days counted
 * from today, so when the core's clock has moved three days on, the same view lists the boxes due
 * in the five days from then. Screenshots in light and dark; axe on the open filter.
 */
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';
import type { ContainerFilters } from '../../../src/shared/views';
import { expect, expectRowsLoaded, ipcAnswer, seriousViolations, test, waitForFirstSync } from '../fixtures';
import { startTestHost, type TestHost } from '../host/server';

const DAY = 86_400_000;
const NAME = 'Due in the next 5 days';
const apiKey = `e2e-relative-dates-${randomUUID()}`;
// The core's clock (it judges "today"), moved by the test; the demo world is laid out around it.
let clock = Date.now();
let sandbox: Sandbox;
let host: TestHost;

test.beforeEach(async ({}, testInfo) => {
  clock = Date.now();
  sandbox = await startSandbox({
    seed: 'relative-dates',
    shipments: 200,
    apiKeys: [apiKey],
    start: clock,
    tick: 0,
    routing: false,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
  });
  host = await startTestHost({
    dataDir: testInfo.outputPath('data'),
    now: () => clock,
    demo: { start: () => Promise.resolve({ url: sandbox.url, apiKey, close: () => Promise.resolve() }) },
  });
  await waitForFirstSync(host);
});
test.afterEach(async () => {
  await host.close();
  await sandbox.close();
});

const count = (filters: ContainerFilters) => host.core.handlers['containers:count']({ filters });
const rowCount = (n: number, all: number) =>
  `${n.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} containers`;

test('Last free day: next 5 days in one choice, no half-typed year applied, and a saved view that stays relative', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const all = await count({});
  const nextFive = await count({ lfdDays: { next: 5 } });
  expect(nextFive, 'the demo world has boxes due in the next 5 days').toBeGreaterThan(0);

  await page.goto(`${host.url}#/containers`);
  const grid = page.getByRole('grid', { name: 'Containers' });
  await expectRowsLoaded(grid);
  const shown = page.getByRole('status', { name: 'Row count' });
  await expect(shown).toHaveText(`${all.toLocaleString('en-US')} containers`);

  // + Filter → Last free day: the choices, one click each.
  await page.getByRole('button', { name: '+ Filter' }).click();
  await page
    .getByRole('menu', { name: 'Add a filter' })
    .getByRole('menuitem', { name: 'Last free day', exact: true })
    .click();
  const editor = page.getByRole('dialog', { name: 'Filter: Last free day' });
  await expect(editor.getByRole('radio')).toHaveCount(9);
  await expect(editor.getByRole('radio', { name: 'Overdue', exact: true })).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath('lfd-choices-light.png') });
  expect(await seriousViolations(page), 'the open date filter').toEqual([]);

  await editor.getByRole('radio', { name: 'Next 5 days' }).check();
  const chip = page.getByRole('button', { name: 'Last free day: Next 5 days' });
  await expect(chip).toBeVisible();
  await expect(shown).toHaveText(rowCount(nextFive, all));
  await expect(editor.getByText(/^As of today: .+ – .+\.$/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('lfd-next-5-days-light.png') });

  // A custom day typed as a forwarder types it: nothing is asked for while the year is half typed.
  const asked: unknown[] = [];
  page.on('request', (request) => {
    if (!request.url().endsWith('/__host/ipc')) return;
    const body = request.postDataJSON() as { channel?: string; arg?: { filters?: ContainerFilters } } | null;
    if (body?.channel === 'containers:count') asked.push(body.arg?.filters?.lfdDays);
  });
  await editor.getByRole('radio', { name: 'Custom range…' }).check();
  const from = editor.getByLabel('From', { exact: true });
  await from.focus();
  await page.keyboard.type('1203202');
  await page.keyboard.press('Enter');
  await expect(editor.getByText('Finish the date: month, day and a 4-digit year.')).toBeVisible();
  await expect(from).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: testInfo.outputPath('lfd-half-typed-year-light.png') });
  expect(asked).toEqual([]);
  await expect(chip).toBeVisible();

  const dayCount = await count({ lfdDays: { from: '2026-12-03' } });
  const answered = ipcAnswer(page, 'containers:count');
  await page.keyboard.type('6');
  await page.keyboard.press('Enter');
  await answered;
  expect(asked).toEqual([{ from: '2026-12-03' }]);
  await expect(page.getByRole('button', { name: 'Last free day: From Thu, Dec 3, 2026' })).toBeVisible();
  await expect(shown).toHaveText(rowCount(dayCount, all));

  // Back to "Next 5 days", and saved as a view.
  await editor.getByRole('radio', { name: 'Next 5 days' }).check();
  await expect(chip).toBeVisible();
  await expect(shown).toHaveText(rowCount(nextFive, all));
  await editor.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Save view…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save view' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(NAME);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const pinned = page.getByRole('navigation', { name: 'Main' }).getByRole('link', {
    name: `${NAME}, saved view of Containers`,
  });
  await expect(pinned).toBeVisible();

  // What the view keeps: the days counted from today, not the dates they were on the day it was saved.
  const stored = await page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('quayside:views:'))
      .flatMap(
        (key) => (JSON.parse(localStorage.getItem(key)!) as { views: { name: string; filters: unknown }[] }).views,
      ),
  );
  expect(stored.find((v) => v.name === NAME)?.filters).toEqual({ lfdDays: { next: 5 } });

  // Three days on (the core's clock): the same view lists the boxes due in the five days from then.
  clock += 3 * DAY;
  const later = await count({ lfdDays: { next: 5 } });
  expect(later, 'three days on, other boxes are due in the next 5 days').not.toBe(nextFive);
  await page.getByRole('link', { name: 'Shipments', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shipments');
  await pinned.click();
  await expectRowsLoaded(grid);
  await expect(chip).toBeVisible();
  await expect(shown).toHaveText(rowCount(later, all));

  // Dark: the open filter and the saved view.
  await host.core.handlers['settings:update']({ theme: 'dark' });
  await expect(page.locator('html[data-theme=dark]')).toHaveCount(1);
  await chip.click();
  await expect(editor.getByRole('radio', { name: 'Next 5 days' })).toBeChecked();
  await page.screenshot({ path: testInfo.outputPath('lfd-next-5-days-dark.png') });
  expect(await seriousViolations(page), 'the open date filter, dark').toEqual([]);
  await editor.getByRole('radio', { name: 'Custom range…' }).check();
  await editor.getByLabel('From', { exact: true }).focus();
  await page.keyboard.type('1203202');
  // Tab past the field's calendar button, on to To: leaving the field.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(editor.getByLabel('To', { exact: true })).toBeFocused();
  await expect(editor.getByText('Finish the date: month, day and a 4-digit year.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('lfd-half-typed-year-dark.png') });
  await expect(shown).toHaveText(rowCount(later, all));
});
