/**
 * Per-diem rates entered in Settings, and the estimated demurrage and detention
 * on the dashboard, a container page and a shipment page, labelled as an estimate; days only
 * without rates.
 */
import { expect, ipcAnswer, test, waitForFirstSync, seriousViolations } from '../fixtures';

test('rates entered in Settings give an estimate on the dashboard, a container page and its shipment page', async ({
  page,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await waitForFirstSync(host);
  const overdue = (await host.core.handlers['containers:list']({ filters: { overdue: true }, page: { limit: 50 } }))
    .rows;
  const box = overdue.find((row) => row.shipmentId !== null && row.number !== null)!;
  expect(box, 'the demo data has an overdue box').toBeTruthy();

  // Without rates: days only.
  await page.goto(`${host.url}#/containers/${box.id}`);
  const exposure = page.getByRole('region', { name: /Demurrage and detention/ });
  await expect(exposure).toContainText(/\d+ days? past the last free day so far \(.+ – today\), not picked up yet/);
  await expect(exposure).toContainText('Days only.');
  await expect(exposure).not.toContainText('$');

  // Rates entered through the form.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('button', { name: 'Add default rates' }).click();
  const defaults = page.getByRole('group', { name: 'Default rates' });
  await defaults.getByLabel('Demurrage, tier 1: USD per day').fill('150');
  await defaults.getByRole('button', { name: 'Add a demurrage tier' }).click();
  await defaults.getByLabel('Demurrage, tier 2: from day').fill('5');
  await defaults.getByLabel('Demurrage, tier 2: USD per day').fill('250');
  await defaults.getByRole('button', { name: 'Add a demurrage tier' }).click();
  await defaults.getByLabel('Demurrage, tier 3: from day').fill('10');
  await defaults.getByLabel('Demurrage, tier 3: USD per day').fill('400');
  await defaults.getByLabel(/^Free days after pickup/).fill('4');
  await defaults.getByLabel('Detention, tier 1: USD per day').fill('100');
  await page.getByRole('button', { name: 'Add rates for a terminal' }).click();
  const terminal = page.getByRole('group', { name: /^Terminal/ });
  await terminal.getByRole('combobox', { name: /Terminal or rail ramp/ }).fill('Pier 400');
  await terminal.getByLabel('Demurrage, tier 1: USD per day').fill('300');
  const saved = ipcAnswer(page, 'settings:update');
  await page.getByRole('button', { name: 'Save rates' }).click();
  await saved;
  await expect(page.getByRole('status').filter({ hasText: 'Rates saved (2 sets).' })).toBeVisible();
  expect((await host.core.handlers['settings:get'](undefined)).rates.sets.map((s) => s.scope)).toEqual([
    'default',
    'terminal',
  ]);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('heading', { name: 'Demurrage and detention rates' }).evaluate((h) => h.scrollIntoView());
  await page.screenshot({ path: testInfo.outputPath('rates-settings.png') });

  // The dashboard: the overdue boxes' estimated demurrage.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
  const tile = page.getByTestId('exposure-tile');
  await expect(tile).toContainText(/\$[\d,]+\s*Est\. demurrage, overdue boxes/);
  await expect(tile).toContainText('estimate from your rates');
  await page.screenshot({ path: testInfo.outputPath('dashboard-exposure.png') });

  // The container page: days and the estimate with its tiers.
  await page.goto(`${host.url}#/containers/${box.id}`);
  await expect(exposure).toContainText(/Est\. \$[\d,]+\.\d\d/);
  await expect(exposure).toContainText('estimate');
  await expect(exposure.getByRole('link', { name: 'your per-diem rates' })).toHaveAttribute('href', '#/settings');
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('container-exposure.png') });

  // Its shipment page: per box and in total.
  await page.goto(`${host.url}#/shipments/${box.shipmentId}`);
  const shipment = page.getByTestId('shipment-exposure');
  await expect(shipment.getByRole('heading')).toContainText(/est\. \$[\d,]+\.\d\d so far/);
  await expect(shipment.getByRole('row', { name: new RegExp(box.number!) })).toContainText(/\d+ d/);
  expect(await seriousViolations(page)).toEqual([]);
  await shipment.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('shipment-exposure.png') });
});
