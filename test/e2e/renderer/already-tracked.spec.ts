import AxeBuilder from '@axe-core/playwright';
import { expect, expectRowsLoaded, test, waitForFirstSync } from '../fixtures';

test('a number already tracked is said beside the field, with a link that shows its tracking request', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  // A request the demo account already tracks (the sandbox answers a second one 422 duplicate).
  const { rows } = await host.core.handlers['trackingRequests:list']({
    filters: { statuses: ['created'], requestTypes: ['bill_of_lading'] },
    page: { limit: 1 },
  });
  const tracked = rows[0]!;
  const number = tracked.requestNumber!;

  await page.goto(`${host.url}#/tracking-requests`);
  await page.getByRole('button', { name: 'New tracking request' }).click();
  const field = page.getByRole('textbox', { name: 'Number', exact: true });
  await field.fill(number);
  await page.getByRole('combobox', { name: 'Carrier' }).fill(tracked.carrierScac!);
  await page.getByRole('button', { name: 'Start tracking' }).click();

  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription('Already tracked');
  await expect(field).toBeFocused();
  const show = page.getByRole('link', { name: `Show tracking request ${number}` });
  await expect(show).toBeVisible();
  if (tracked.shipmentId) {
    await expect(page.getByRole('link', { name: 'Open its shipment' })).toHaveAttribute(
      'href',
      `#/shipments/${tracked.shipmentId}`,
    );
  }
  await page.screenshot({ path: testInfo.outputPath('01-already-tracked.png') });
  const scan = await new AxeBuilder({ page })
    .include('form')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // From the keyboard: the link is the next stop after the number; Enter shows the request.
  await page.keyboard.press('Tab');
  await expect(show).toBeFocused();
  await page.keyboard.press('Enter');
  const grid = page.getByRole('grid', { name: 'Tracking requests' });
  await expect(page.getByRole('status', { name: 'Row count' })).toHaveText(/^1 of \d+ tracking requests$/);
  await expectRowsLoaded(grid);
  await expect(grid.locator('[role="row"][data-index]')).toHaveCount(1);
  await expect(grid).toContainText(number);
  await page.screenshot({ path: testInfo.outputPath('02-existing-request-shown.png') });
});
