import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, waitForFirstSync } from '../fixtures';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
}

for (const theme of ['light', 'dark'] as const) {
  test(`every view passes an accessibility scan with no serious violations (${theme} theme)`, async ({
    page,
    host,
  }) => {
    // Twelve pages, each loaded and scanned: on a machine with both cores busy a scan alone takes
    // ten seconds or more, so the bound is the sum of theirs, not one page's.
    test.setTimeout(300_000);
    await waitForFirstSync(host);
    await host.core.handlers['settings:update']({ theme });
    const [shipment] = (await host.core.handlers['shipments:list']({ filters: {}, page: { limit: 1 } })).rows;
    const [container] = (
      await host.core.handlers['containers:list']({ filters: { statuses: ['available'] }, page: { limit: 1 } })
    ).rows;
    // A box at sea: its container page draws the route map (routing).
    const [atSea] = (
      await host.core.handlers['containers:list']({ filters: { statuses: ['in_transit'] }, page: { limit: 1 } })
    ).rows;
    const places = [
      { hash: '#/dashboard', ready: 'Dashboard' },
      // After one sync: its empty state (change-history.spec.ts scans it with rows and filters open).
      { hash: '#/changes', ready: 'Changes' },
      // After one sync: the latest sync's alerts (alerts.spec.ts scans a sync's with every kind).
      { hash: '#/alerts', ready: 'Alerts' },
      { hash: '#/shipments', ready: 'Shipments' },
      { hash: '#/containers', ready: 'Containers' },
      { hash: '#/tracking-requests', ready: 'Tracking requests' },
      { hash: '#/tracking-requests/import', ready: 'Import tracking requests' },
      { hash: '#/settings', ready: 'Settings' },
      { hash: '#/email-submissions', ready: 'Email submissions' },
      { hash: `#/shipments/${shipment!.id}`, ready: shipment!.billOfLading! },
      { hash: `#/containers/${container!.id}`, ready: container!.number! },
      { hash: `#/containers/${atSea!.id}`, ready: atSea!.number! },
    ];
    for (const place of places) {
      await page.goto(`${host.url}${place.hash}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(place.ready);
      await expect(page.getByRole('status').filter({ hasText: /Loading|Reading/ })).toHaveCount(0);
      expect(await seriousViolations(page), `${place.hash} in the ${theme} theme`).toEqual([]);
    }
  });

  // The open pieces: a filter editor, the column chooser, the Export menu, the search palette, the new tracking request form.
  test(`every open panel passes an accessibility scan with no serious violations (${theme} theme)`, async ({
    page,
    host,
  }, testInfo) => {
    test.setTimeout(300_000);
    await waitForFirstSync(host);
    await host.core.handlers['settings:update']({ theme });
    await page.goto(`${host.url}#/containers`);
    await expect(page.getByRole('grid', { name: 'Containers' })).toBeVisible();
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByRole('menuitem', { name: 'Status' }).click();
    const editor = page.getByRole('dialog', { name: 'Filter: Status' });
    await expect(editor).toBeVisible();
    expect(await seriousViolations(page), 'filter editor').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(editor).toBeHidden();
    await page.getByRole('button', { name: 'Columns' }).click();
    const chooser = page.getByRole('dialog', { name: 'Choose columns' });
    await expect(chooser).toBeVisible();
    expect(await seriousViolations(page), 'column chooser').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(chooser).toBeHidden();
    // The Export menu (Export CSV, Export Excel, Print…).
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const exportMenu = page.getByRole('menu', { name: 'Export this list' });
    await expect(exportMenu.getByRole('menuitem', { name: 'Export CSV' })).toBeFocused();
    expect(await seriousViolations(page), 'export menu').toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`export-menu-${theme}.png`) });
    await page.keyboard.press('Escape');
    await expect(exportMenu).toBeHidden();
    // Saved views: the save dialog.
    await page.getByRole('button', { name: 'Save view…' }).click();
    const saveView = page.getByRole('dialog', { name: 'Save view' });
    await expect(saveView).toBeVisible();
    expect(await seriousViolations(page), 'save view dialog').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(saveView).toBeHidden();
    // A custom field's pick list, and the chooser with one shown.
    await page.goto(`${host.url}#/shipments`);
    await expect(page.getByRole('grid', { name: 'Shipments' })).toBeVisible();
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByRole('menuitem', { name: 'Incoterm' }).click();
    const pickList = page.getByRole('dialog', { name: 'Filter: Incoterm' });
    await pickList.getByRole('checkbox', { name: /^FOB/ }).check();
    expect(await seriousViolations(page), 'custom field pick list').toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('dialog', { name: 'Choose columns' }).getByRole('checkbox', { name: 'PO number' }).click();
    expect(await seriousViolations(page), 'column chooser with a custom field shown').toEqual([]);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    const search = page.getByRole('combobox', { name: /Search BL, booking, container/ });
    await expect(search).toBeFocused();
    await page.keyboard.type('MAEU');
    await expect(page.getByRole('listbox', { name: 'Results' }).getByRole('option').first()).toBeVisible();
    expect(await seriousViolations(page), 'search palette').toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`search-${theme}.png`) });
    await page.keyboard.press('Escape');
    await expect(search).toBeHidden();
    await page.goto(`${host.url}#/tracking-requests`);
    await page.getByRole('button', { name: 'New tracking request' }).click();
    await page.getByRole('button', { name: 'Start tracking' }).click();
    await expect(page.getByRole('textbox', { name: 'Number', exact: true })).toHaveAttribute('aria-invalid', 'true');
    expect(await seriousViolations(page), 'tracking request form with errors').toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`form-${theme}.png`) });
    // The import's column step and its preview with problems (pasted cells, one column unknown).
    await page.goto(`${host.url}#/tracking-requests/import`);
    await page
      .getByRole('textbox', { name: /Copy the cells/ })
      .fill('Cntr No.\tNotes\nMSCU1234567\tcall\nMSCU1234566\t');
    await page.getByRole('button', { name: 'Read pasted cells' }).click();
    await expect(page.getByRole('heading', { name: 'Which column holds what?' })).toBeVisible();
    expect(await seriousViolations(page), 'import columns').toEqual([]);
    await page.getByRole('button', { name: 'Check the rows' }).click();
    await expect(page.getByRole('table', { name: 'Rows of the import and their results' })).toContainText(
      'Needs a fix',
    );
    expect(await seriousViolations(page), 'import preview').toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`import-preview-${theme}.png`) });
  });
}
