/**
 * Ctrl+K results say why they matched, the field that holds the typed text with
 * that text highlighted, also for a container found through its shipment. A screenshot.
 */
import { expect, test, waitForFirstSync } from '../fixtures';

// The lists' reads and Ctrl+K's search answered by the worker thread, as over a large account.
test.use({ readsAside: 'always' });

test('Ctrl+K says which field matched and highlights the typed text in it', async ({ page, host }, testInfo) => {
  await waitForFirstSync(host);
  const { rows } = await host.core.handlers['containers:list']({ filters: {}, page: { limit: 1 } });
  const container = rows[0]!;
  await host.core.handlers['shipments:update']({ id: container.shipmentId!, refNumbers: ['PO-QX4821-AMS'] });

  await page.goto(host.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.keyboard.press('Control+k');
  const search = page.getByRole('combobox', { name: /Search BL, booking, container/ });
  await expect(search).toBeFocused();
  await search.fill('qx48');
  const results = page.getByRole('listbox', { name: 'Results' });
  const shipment = results.getByRole('option', { name: new RegExp(container.billOfLading!) }).first();
  await expect(shipment).toContainText('Reference number: PO-QX4821-AMS');
  await expect(shipment.locator('mark')).toHaveText('QX48');
  const box = results.getByRole('option', { name: new RegExp(container.number!) });
  await expect(box).toContainText('Shipment’s reference number: PO-QX4821-AMS');
  await expect(box.locator('mark')).toHaveText('QX48');
  await page.screenshot({ path: testInfo.outputPath('search-why-reference.png') });

  // A container number: the number itself is the field.
  await search.fill(container.number!.slice(0, 7));
  const byNumber = results.getByRole('option', { name: new RegExp(container.number!) });
  await expect(byNumber).toContainText(`Container number: ${container.number!}`);
  await expect(byNumber.locator('mark')).toHaveText(container.number!.slice(0, 7));
  await page.screenshot({ path: testInfo.outputPath('search-why-container.png') });
});
