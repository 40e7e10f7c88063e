/**
 * Custom fields on the shipment and container pages, against a service whose
 * `/custom_fields` list answers 500 (as the live one has been seen to): the page reads the
 * record's own values and says why; a value edited shows at once, is saved through the record's
 * endpoint, and a value the service refuses goes back with the reason. Screenshots of each
 * state and an accessibility scan with the editor open.
 */
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, ipcAnswer, waitForFirstSync } from '../fixtures';
import { startTestHost, type TestHost } from '../host/server';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';

const test = base.extend<{ cf: { host: TestHost; sandbox: () => Sandbox } }>({
  cf: async ({}, use, testInfo) => {
    let sandbox: Sandbox | undefined;
    const host = await startTestHost({
      dataDir: testInfo.outputPath('data'),
      demo: {
        async start() {
          const started = await startSandbox({
            seed: 'demo',
            shipments: 120,
            failingPaths: { '/custom_fields': '500' },
          });
          sandbox = started;
          return { url: started.url, apiKey: started.apiKeys[0]!, close: () => started.close() };
        },
      },
    });
    await use({
      host,
      sandbox: () => {
        if (!sandbox) throw new Error('the demo service has not started');
        return sandbox;
      },
    });
    await host.close();
  },
});

test('custom fields: read per record when the list fails, edited optimistically, a refusal rolled back', async ({
  page,
  cf,
}, testInfo) => {
  test.setTimeout(120_000);
  const { host } = cf;
  await waitForFirstSync(host);
  const sandbox = cf.sandbox();
  const now = sandbox.clock.now();
  const poOf = (rec: (typeof sandbox.store.shipments)[number]) =>
    sandbox.store.customFields.valuesOf({ type: 'shipment', rec }).find((v) => v.definition.apiSlug === 'po_number')
      ?.value;
  const shipment = sandbox.store.shipments.find((s) => s.createdAt <= now && typeof poOf(s) === 'string')!;
  const po = poOf(shipment) as string;

  await page.goto(`${host.url}#/shipments/${shipment.id}`);
  const panel = page.getByRole('region', { name: 'Custom fields' });
  await expect(panel).toContainText('could not list custom field values of shipments');
  await expect(panel.getByRole('definition').filter({ hasText: po })).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('custom-fields-shipment.png') });

  // Edited: the new value shows while the service is asked (the answer is held until seen).
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/__host/ipc', async (route) => {
    const body = route.request().postDataJSON() as { channel?: string } | null;
    if (body?.channel === 'customFields:set') await held;
    await route.continue();
  });
  await panel.getByRole('button', { name: 'Edit PO number' }).click();
  await panel.getByRole('textbox', { name: 'PO number' }).fill('PO-E2E-0001');
  const saved = ipcAnswer(page, 'customFields:set');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByText('Saving…')).toBeVisible();
  await expect(panel).toContainText('PO-E2E-0001');
  release();
  expect((await saved).ok()).toBe(true);
  await expect(panel.getByText('Saving…')).toHaveCount(0);
  await expect(panel).toContainText('PO-E2E-0001');
  expect(poOf(shipment)).toBe('PO-E2E-0001');

  // Refused: the service answers 503 for this record's incoterm; the old value comes back with the reason.
  await page.unroute('**/__host/ipc');
  const incotermOf = () =>
    sandbox.store.customFields
      .valuesOf({ type: 'shipment', rec: shipment })
      .find((v) => v.definition.apiSlug === 'incoterm');
  const before = incotermOf() ? sandbox.store.customFields.displayValue(incotermOf()!) : '—';
  sandbox.failPath(`/shipments/${shipment.id}/custom_fields/incoterm`, '503');
  await panel.getByRole('button', { name: 'Edit Incoterm' }).click();
  const select = panel.getByRole('combobox', { name: 'Incoterm' });
  await select.selectOption({
    label: before === 'DDP (Delivered duty paid)' ? 'EXW (Ex works)' : 'DDP (Delivered duty paid)',
  });
  const violations = (
    await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  ).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id);
  expect(violations).toEqual([]);
  const refused = ipcAnswer(page, 'customFields:set');
  await panel.getByRole('button', { name: 'Save' }).click();
  await refused;
  await expect(panel.getByRole('alert')).toContainText('Incoterm was not changed');
  await expect(panel.getByRole('alert')).toContainText('Nothing was changed.');
  await expect(panel.getByRole('definition').filter({ hasText: 'Edit Incoterm' })).toContainText(before!);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('custom-fields-refused.png') });

  // Ctrl+K finds the shipment by its PO number, saying which field matched.
  await page.keyboard.press('Control+k');
  const search = page.getByRole('combobox', { name: /Search BL, booking, container/ });
  await expect(search).toBeFocused();
  await search.fill('e2e-0001');
  const found = page
    .getByRole('listbox', { name: 'Results' })
    .getByRole('option', { name: new RegExp(shipment.billOfLading) });
  await expect(found).toContainText('PO number: PO-E2E-0001');
  await expect(found.locator('mark')).toHaveText('E2E-0001');
  await page.screenshot({ path: testInfo.outputPath('custom-fields-search.png') });
  await page.keyboard.press('Escape');

  // A container's fields on its page.
  const container = shipment.containers.find((c) => c.createdAt <= now)!;
  await page.goto(`${host.url}#/containers/${container.id}`);
  const boxPanel = page.getByRole('region', { name: 'Custom fields' });
  await expect(boxPanel.getByRole('term')).toHaveText(['Delivery address', 'Pallet count', 'Temperature controlled']);
  await page.screenshot({ path: testInfo.outputPath('custom-fields-container.png') });
});
