import { DEMO_API_KEY, startSandbox } from '../../../src/sandbox/index';
import { expect, expectRowsLoaded, syncStatus, test, waitForFirstSync } from '../fixtures';

test('with the service gone, every view works from the local data and actions say why they wait', async ({
  page,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  const service = await startSandbox({ seed: 'offline-e2e', shipments: 40 });
  let serviceClosed = false;
  try {
    await host.core.handlers['profiles:add']({ name: 'Head office', apiKey: DEMO_API_KEY, baseUrl: service.url });
    await waitForFirstSync(host);
    const shipments = await host.core.handlers['shipments:count']({ filters: {} });
    expect(shipments).toBeGreaterThan(0);

    await page.goto(`${host.url}#/shipments`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const count = page.getByRole('status', { name: 'Row count' });
    await expect(count).toHaveText(`${shipments} shipments`);
    await expect(nav.getByText('Offline', { exact: true })).toHaveCount(0);
    await expect(nav.getByRole('combobox', { name: 'Account' })).toHaveValue(/.+/);
    await expect(nav.getByText('Demo', { exact: true })).toHaveCount(0);

    // The service goes away; the next sync finds out.
    await service.close();
    serviceClosed = true;
    const failed = syncStatus(host, (status) => status.state === 'failed');
    await nav.getByRole('button', { name: 'Sync now' }).click();
    // The sync retries with backoff before it gives up and says so.
    await test.step('wait for the sync to give up', () => failed);
    await expect(nav.getByText('Offline', { exact: true })).toBeVisible();
    await expect(nav.getByText('Sync failed')).toBeVisible();
    await expect(page.getByRole('contentinfo', { name: 'Application status' })).toContainText('Offline');
    // The banner says what the user sees and what waits, in their words (no service internals).
    const banner = page.locator('#offline-note');
    await expect(banner).toContainText('you are seeing the copy on this computer');
    await expect(banner).not.toContainText(/webhook/i);
    await page.screenshot({ path: testInfo.outputPath('offline-shipments.png') });

    // Lists, search and details read the local database.
    await expect(count).toHaveText(`${shipments} shipments`);
    const grid = page.getByRole('grid', { name: 'Shipments' });
    await expectRowsLoaded(grid);
    const bl = (await grid.locator('[role="row"][data-index="0"] [role="gridcell"]').first().textContent())!.trim();
    await page.getByRole('searchbox', { name: 'Search shipments' }).fill(bl);
    await expect(count).toHaveText(`1 of ${shipments} shipments`);
    await grid.locator('[role="row"][data-index="0"]').click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(bl);
    await expect(page.getByRole('list', { name: /^Milestones of / }).first()).toBeVisible();

    // Actions that need the service are disabled, with the reason.
    const stop = page.getByRole('button', { name: /Stop tracking|Resume tracking/ });
    await expect(stop).toBeDisabled();
    await expect(stop).toHaveAttribute('title', /Offline/);
    await expect(page.getByRole('textbox', { name: 'New tag' })).toBeDisabled();
    await expect(page.getByText('Can be changed once back online.').first()).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'New reference number' })).toBeDisabled();
    await page.screenshot({ path: testInfo.outputPath('offline-shipment.png') });

    await nav.getByRole('link', { name: 'Tracking requests' }).click();
    const create = page.getByRole('button', { name: 'New tracking request' });
    await expect(create).toBeDisabled();
    await expect(create).toHaveAttribute('title', /Offline/);

    await nav.getByRole('link', { name: 'Containers' }).click();
    const containers = page.getByRole('grid', { name: 'Containers' });
    await expectRowsLoaded(containers);
    const firstContainer = containers.locator('[role="row"][data-index="0"]');
    const number = (await firstContainer.locator('[role="gridcell"]').first().textContent())!.trim();
    await firstContainer.click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(number);
    // The page's one refresh (a lookup and the latest events) needs the service.
    await expect(page.getByRole('button', { name: 'Refresh now' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Refresh now' })).toHaveAttribute('title', /Offline/);

    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('link', { name: /Arriving in the next 7 days/ })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('offline-dashboard.png') });
  } finally {
    if (!serviceClosed) await service.close();
  }
});
