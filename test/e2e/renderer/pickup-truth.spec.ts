/**
 * Pickup truth: the container page's pickup answer in each state at 1366x768
 * (Ready; Not ready because…; Can't tell once the terminal's data is older than the limit, shown
 * with the page's clock moved 31 hours on), the Pickup column in Containers, and an axe scan.
 */
import { pickupTruth } from '../../../src/shared/pickup';
import type { ContainerRow } from '../../../src/shared/rows';
import { expect, test, waitForFirstSync, seriousViolations } from '../fixtures';

test('the Pickup card says ready, not ready and why, or that the terminal data is too old', async ({
  page,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await waitForFirstSync(host);
  const rows: ContainerRow[] = [];
  for (const statuses of [['available'], ['discharged']] as const) {
    rows.push(
      ...(await host.core.handlers['containers:list']({ filters: { statuses: [...statuses] }, page: { limit: 200 } }))
        .rows,
    );
  }
  const now = Date.now();
  const ready = rows.find((r) => pickupTruth(r, now).state === 'ready' && r.lastFreeDay !== null);
  const notReady =
    rows.find((r) => pickupTruth(r, now).state === 'not_ready' && r.holds.length > 0) ??
    rows.find((r) => pickupTruth(r, now).state === 'not_ready');
  expect(ready, 'the demo data has a box ready for pickup').toBeTruthy();
  expect(notReady, 'the demo data has a box at the terminal that is not ready').toBeTruthy();
  const card = page.getByRole('region', { name: 'Can I pick it up?' });

  await page.goto(`${host.url}#/containers/${ready!.id}`);
  await expect(card.locator('.verdict strong')).toHaveText('Ready for pickup');
  await expect(card).toContainText(/Terminal checked\s*(under 1 h|\d+ h) ago/);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('pickup-ready.png') });

  await page.goto(`${host.url}#/containers/${notReady!.id}`);
  await expect(card.locator('.verdict strong')).toHaveText('Not ready');
  const reasons = pickupTruth(notReady!, now).reasons;
  // Each reason, a hold followed by what the hold itself says where it says more.
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(card.getByRole('list', { name: 'Why not ready' }).getByRole('listitem')).toHaveText(
    reasons.map((r) => new RegExp(`^${escaped(r)}(: .+)?$`)),
  );
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('pickup-not-ready.png') });

  // The same ready box seen 31 hours later, nothing synced since: no "ready", no countdown.
  // The page is loaded again so the app starts on the moved clock (it reads the time every 30 s).
  await page.clock.setFixedTime(now + 31 * 3_600_000);
  await page.goto(`${host.url}#/containers/${ready!.id}`);
  await page.reload();
  await expect(card.locator('.verdict strong')).toHaveText('Can’t tell');
  await expect(card.getByRole('note')).toContainText(/Terminal last checked 3\d h ago — availability may have changed/);
  await expect(card).not.toContainText('Ready for pickup');
  await expect(card.locator('.urgency')).toHaveCount(0);
  // Nor anywhere else on the page: the one pickup answer says how old the data is, once.
  await expect(page.getByText(/\d+ days? left|Last day today|Overdue \d/)).toHaveCount(0);
  await expect(card.locator('.verdict')).toContainText(/Can’t tell\s*data 3\d h old/);
  await expect(page.getByText('Can’t tell', { exact: true })).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('pickup-cant-tell.png') });

  // The list: a Pickup column, Can't tell for that box on the moved clock.
  await page.goto(`${host.url}#/containers`);
  await expect(page.getByRole('columnheader', { name: 'Pickup' })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'Can’t tell' }).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('containers-pickup-column.png') });
});

test('the stale limit is chosen in Settings and kept', async ({ page, host }, testInfo) => {
  await page.goto(`${host.url}#/settings`);
  const limit = page.getByLabel('Terminal data is stale after');
  await expect(limit).toHaveValue('24');
  await limit.selectOption('48');
  await expect.poll(async () => (await host.core.handlers['settings:get'](undefined)).terminalStaleHours).toBe(48);
  await limit.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('settings-stale-limit.png') });
});
