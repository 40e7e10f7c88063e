/**
 * Settings → Custom fields on a laptop screen (run with renderer-1366): a pick list created for
 * containers shows at once (held while the service is asked), is a column in the containers list's
 * column chooser and a filter with its choices; renamed in place by keyboard, the list follows; a
 * choice the service refuses goes back with its reason; deleted after a question saying how many
 * values go with it, the list no longer offers it. A tracking request opened from its list shows
 * its custom fields, edited as on a shipment. Screenshots light and dark, axe.
 */
import type { Page } from '@playwright/test';
import { test as base, expect, ipcAnswer, seriousViolations, waitForFirstSync } from '../fixtures';
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
            shipments: 60,
            routing: false,
            rateLimit: { limit: 10_000, windowSeconds: 60 },
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

/** The containers list's Columns panel and + Filter menu: whether they offer `name`, with its choices. */
async function containersOffer(page: Page, host: TestHost, name: string, choices: string[] | null): Promise<void> {
  await page.goto(`${host.url}#/containers`);
  await expect(page.getByRole('grid', { name: 'Containers' })).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  const chooser = page.getByRole('dialog', { name: 'Choose columns' });
  const custom = chooser.getByRole('group', { name: 'Custom fields' });
  if (choices === null) {
    await expect(custom.getByRole('checkbox', { name, exact: true })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '+ Filter' }).click();
    await expect(page.getByRole('menuitem', { name, exact: true })).toHaveCount(0);
    await page.keyboard.press('Escape');
    return;
  }
  await expect(custom.getByRole('checkbox', { name, exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();
  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menuitem', { name, exact: true }).click();
  const editor = page.getByRole('dialog', { name: `Filter: ${name}` });
  const options = editor.getByRole('list', { name: `${name} options` });
  await expect(options.getByRole('checkbox')).toHaveCount(choices.length);
  for (const choice of choices)
    await expect(options.getByRole('checkbox', { name: new RegExp(`^${choice}`) })).toBeVisible();
}

test('custom fields from Settings: a pick list created, offered by the containers list, renamed, refused, deleted', async ({
  page,
  cf,
}, testInfo) => {
  test.setTimeout(180_000);
  const { host } = cf;
  await waitForFirstSync(host);
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`) });

  await page.goto(`${host.url}#/settings`);
  const section = page.getByRole('region', { name: 'Custom fields' });
  await expect(section.getByRole('listitem', { name: 'Incoterm' })).toBeVisible();

  // Created: it shows at once, "Saving…", while the service is asked (its answer held until seen).
  const form = section.getByRole('form', { name: 'New custom field' });
  await form.getByRole('textbox', { name: 'Field name' }).fill('Haulier');
  await form.getByRole('combobox', { name: 'On' }).selectOption({ label: 'Containers' });
  await form.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'Pick list (one choice)' });
  await form.getByRole('textbox', { name: 'Choices, one a line' }).fill('Swift Haulage\nDockside Trucking');
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/__host/ipc', async (route) => {
    const body = route.request().postDataJSON() as { channel?: string } | null;
    if (body?.channel === 'customFields:createDefinition') await held;
    await route.continue();
  });
  const created = ipcAnswer(page, 'customFields:createDefinition');
  await form.getByRole('button', { name: 'Add field' }).click();
  const haulier = section.getByRole('listitem', { name: 'Haulier' });
  await expect(haulier).toContainText('Saving…');
  await haulier.scrollIntoViewIfNeeded();
  await shot('custom-field-saving-light');
  release();
  expect((await created).ok()).toBe(true);
  await page.unroute('**/__host/ipc');
  await expect(haulier).toContainText('Pick list (one choice) · no values yet');
  await expect(haulier.getByRole('list', { name: 'Choices of Haulier' }).getByRole('listitem')).toHaveText([
    /Swift Haulage/,
    /Dockside Trucking/,
  ]);
  await expect(page.getByRole('status').filter({ hasText: 'Haulier created for containers.' })).toBeAttached();
  await shot('custom-field-created-light');

  // The containers list offers it at once: a column to choose and a filter with its two choices.
  await containersOffer(page, host, 'Haulier', ['Swift Haulage', 'Dockside Trucking']);
  await shot('custom-field-filter-light');
  await page.keyboard.press('Escape');

  // Renamed in place by keyboard: Enter saves; a choice renamed too.
  await page.goto(`${host.url}#/settings`);
  await haulier.getByRole('button', { name: 'Rename Haulier' }).click();
  const nameBox = section.getByRole('textbox', { name: 'New name for Haulier' });
  await expect(nameBox).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Trucker');
  await page.keyboard.press('Enter');
  const trucker = section.getByRole('listitem', { name: 'Trucker' });
  await expect(trucker.getByRole('button', { name: 'Rename Trucker' })).toBeFocused();
  await trucker.getByRole('button', { name: 'Rename choice Dockside Trucking of Trucker' }).click();
  await section.getByRole('textbox', { name: 'New label for Dockside Trucking' }).fill('Dockside Transport');
  await page.keyboard.press('Enter');
  await expect(trucker.getByRole('list', { name: 'Choices of Trucker' }).getByRole('listitem')).toHaveText([
    /Swift Haulage/,
    /Dockside Transport/,
  ]);

  // Another admin added a choice at the service meanwhile: the same one typed here is refused and goes back.
  const sandbox = cf.sandbox();
  const atService = sandbox.store.world.customFieldDefinitions.find((d) => d.displayName === 'Trucker')!;
  sandbox.store.customFields.addOption(atService, 'Harbour Freight', 'Harbour Freight', null);
  await trucker.getByRole('textbox', { name: 'New choice for Trucker' }).fill('Harbour Freight');
  const refused = ipcAnswer(page, 'customFields:createOption');
  await trucker.getByRole('button', { name: 'Add choice' }).click();
  await refused;
  await expect(trucker.getByRole('alert')).toHaveText(
    'The choice Harbour Freight was not added to Trucker: The Tracking API did not accept this: Value has already been taken',
  );
  await expect(trucker.getByRole('list', { name: 'Choices of Trucker' }).getByRole('listitem')).toHaveCount(2);
  await expect(trucker.getByRole('textbox', { name: 'New choice for Trucker' })).toHaveValue('Harbour Freight');
  await trucker.scrollIntoViewIfNeeded();
  await shot('custom-field-refused-light');

  await host.core.handlers['settings:update']({ theme: 'dark' });
  await expect(page.locator('html[data-theme=dark]')).toBeAttached();
  await shot('custom-field-refused-dark');
  expect(await seriousViolations(page), 'Settings with custom fields, dark').toEqual([]);

  await containersOffer(page, host, 'Trucker', ['Swift Haulage', 'Dockside Transport']);
  await shot('custom-field-filter-renamed-dark');
  await page.keyboard.press('Escape');

  // A value set on a container; deleting the field says it goes with it.
  const box = (await host.core.handlers['containers:list']({ filters: {}, page: { limit: 1 } })).rows[0]!;
  await host.core.handlers['customFields:set']({
    entityType: 'container',
    id: box.id,
    apiSlug: 'haulier',
    value: 'Swift Haulage',
  });
  await page.goto(`${host.url}#/settings`);
  await expect(trucker).toContainText('1 value on containers');
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    }),
  );
  const deleted = ipcAnswer(page, 'customFields:deleteDefinition');
  await trucker.getByRole('button', { name: 'Delete Trucker' }).click();
  expect(await asked).toBe(
    'Delete the custom field “Trucker” for everyone on this account? Its 1 value on containers goes with it.',
  );
  expect((await deleted).ok()).toBe(true);
  await expect(trucker).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Trucker deleted.' })).toBeAttached();
  await section.getByRole('listitem', { name: 'Temperature controlled' }).scrollIntoViewIfNeeded();
  await shot('custom-field-deleted-dark');
  await containersOffer(page, host, 'Trucker', null);
});

test('a tracking request opened from its list shows its custom fields, edited as on a shipment', async ({
  page,
  cf,
}, testInfo) => {
  test.setTimeout(120_000);
  const { host } = cf;
  await waitForFirstSync(host);
  await page.goto(`${host.url}#/tracking-requests`);
  const grid = page.getByRole('grid', { name: 'Tracking requests' });
  const row = grid.locator('[role="row"][data-index="0"]');
  await expect(row).not.toContainText('Loading');
  // Opened by a click, closed by Escape, opened again by Enter on the row.
  await row.click();
  const dialog = page.getByRole('dialog', { name: /^Tracking request / });
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  const panel = dialog.getByRole('region', { name: 'Custom fields' });
  await panel.getByRole('button', { name: 'Edit Cost centre' }).click();
  await panel.getByRole('textbox', { name: 'Cost centre' }).fill('CC-4410');
  const saved = ipcAnswer(page, 'customFields:set');
  await page.keyboard.press('Enter');
  expect((await saved).ok()).toBe(true);
  await expect(panel.getByRole('definition')).toContainText('CC-4410');
  await page.screenshot({ path: testInfo.outputPath('tracking-request-custom-fields-light.png') });
  expect(await seriousViolations(page), 'tracking request dialog').toEqual([]);
  await host.core.handlers['settings:update']({ theme: 'dark' });
  await expect(page.locator('html[data-theme=dark]')).toBeAttached();
  await page.screenshot({ path: testInfo.outputPath('tracking-request-custom-fields-dark.png') });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
