import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Page } from '@playwright/test';
import { chooseExport, expect, expectRowsLoaded, test, waitForFirstSync } from '../fixtures';

/** The first cell of every rendered data row, top to bottom. */
async function firstColumn(page: Page, grid: string): Promise<string[]> {
  const rows = page.getByRole('grid', { name: grid }).locator('[role="row"][data-index]');
  return rows.evaluateAll((elements) =>
    elements
      .map((row) => ({
        index: Number(row.getAttribute('data-index')),
        text: row.querySelector('[role="gridcell"]')?.textContent?.trim() ?? '',
      }))
      .sort((a, b) => a.index - b.index)
      .map((row) => row.text),
  );
}

test('a forwarder’s day: dashboard, last free days, a shipment’s timeline, a tag, a tracking request and an export', async ({
  page,
  host,
  exportPath,
}, testInfo) => {
  test.setTimeout(120_000);
  await waitForFirstSync(host);
  let step = 0;
  const shot = (name: string) =>
    page.screenshot({ path: testInfo.outputPath(`${String(++step).padStart(2, '0')}-${name}.png`) });

  // 1. The dashboard says how many containers must be picked up within 3 days.
  const summary = await host.core.handlers['dashboard:summary'](undefined);
  expect(summary.lfdWithin3Days, 'the demo world has containers due within 3 days').toBeGreaterThan(1);
  await page.goto(host.url);
  const tile = page.getByRole('link', { name: /Last free day within 3 days/ });
  await expect(tile).toContainText(String(summary.lfdWithin3Days));
  await shot('dashboard');

  // 2. The tile opens the containers list filtered to exactly those.
  await tile.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Containers' })).toBeVisible();
  const count = page.getByRole('status', { name: 'Row count' });
  const all = await host.core.handlers['containers:count']({ filters: {} });
  await expect(count).toHaveText(`${summary.lfdWithin3Days} of ${all} containers`);
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('Last free day');
  const grid = page.getByRole('grid', { name: 'Containers' });
  const rows = grid.locator('[role="row"][data-index]');
  await expect(rows).toHaveCount(summary.lfdWithin3Days);
  // Every one of them says how many days are left.
  await expect(rows.filter({ hasText: /days? left|Last day today/ })).toHaveCount(summary.lfdWithin3Days);
  const numbers = await firstColumn(page, 'Containers');
  await shot('containers-lfd-within-3-days');

  // 3. Sort by container number, both ways. The header turns at once; the rows follow when the
  // sorted page is answered, so the order is waited for, not read straight after the click.
  const ascending = [...numbers].sort();
  const header = grid.getByRole('columnheader', { name: 'Container' });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => firstColumn(page, 'Containers')).toEqual(ascending);
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => firstColumn(page, 'Containers')).toEqual([...ascending].reverse());
  await shot('containers-sorted');

  // 4. Open the first container, then its shipment, and read the timeline.
  const number = (await firstColumn(page, 'Containers'))[0]!;
  await grid.locator('[role="row"][data-index="0"]').click();
  await expect(page.getByRole('heading', { level: 1, name: number })).toBeVisible();
  await shot('container-detail');
  await page
    .getByRole('navigation', { name: 'Breadcrumb' })
    .getByRole('link', { name: /^Shipment/ })
    .click();
  const timeline = page.getByRole('list', { name: `Milestones of ${number}` });
  await expect(timeline).toBeVisible();
  // Due within 3 days means it left the ship: discharge is done, the return is not.
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Vessel arrived' })).toContainText('(done)');
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Empty returned' })).toContainText('(not yet)');
  const bl = (await page.getByRole('heading', { level: 1 }).textContent())!.replace(/^BL\s*/, '').trim();
  await shot('shipment-detail');

  // 5. Tag the shipment: it reaches the service and the local copy.
  await page.getByRole('textbox', { name: 'New tag' }).fill('collect-e2e');
  await page.getByRole('button', { name: 'Add tag' }).click();
  await expect(page.getByRole('list', { name: 'Tags' })).toContainText('collect-e2e');
  const [row] = (await host.core.handlers['shipments:list']({ filters: { search: bl }, page: { limit: 5 } })).rows;
  expect(row?.tags).toContain('collect-e2e');
  await shot('shipment-tagged');

  // 6. A tracking request with a carrier the service does not cover, then with the right one.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tracking requests' }).click();
  await page.getByRole('button', { name: 'New tracking request' }).click();
  const lines = await host.core.handlers['shippingLines:list'](undefined);
  const right = lines.find((l) => l.attributes.bill_of_lading_tracking_support === true)!;
  const scac = right.attributes.scac as string;
  const newNumber = `${scac}E2E${Date.now().toString().slice(-8)}`;
  await page.getByRole('textbox', { name: 'Number', exact: true }).fill(newNumber);
  const carrier = page.getByRole('combobox', { name: 'Carrier' });
  await carrier.fill('ZZZZ');
  await page.getByRole('button', { name: 'Start tracking' }).click();
  await expect(carrier).toHaveAttribute('aria-invalid', 'true');
  await expect(carrier).toHaveAccessibleDescription(/ZZZZ is not a carrier the Tracking API covers/);
  await shot('tracking-request-wrong-carrier');
  await carrier.fill(scac);
  await expect(carrier).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Start tracking' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Tracking request for ${newNumber}` })).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Tracking requests' })).toContainText(newNumber);
  await shot('tracking-request-created');

  // 7. Containers from the sidebar is the whole book (a tile's filters stay with the tile); the
  // tile again gives its containers, sorted by number the other way round, to export.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Containers' }).click();
  await expect(count).toHaveText(`${all} containers`);
  await nav.getByRole('link', { name: 'Dashboard' }).click();
  await tile.click();
  await expect(count).toHaveText(`${summary.lfdWithin3Days} of ${all} containers`);
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(rows).toHaveCount(summary.lfdWithin3Days);
  await expectRowsLoaded(grid);
  const shown = await firstColumn(page, 'Containers');
  expect(shown).toEqual([...ascending].reverse());
  await chooseExport(page, 'Export CSV');
  await expect(page.getByRole('status').filter({ hasText: 'Exported' })).toHaveText(
    new RegExp(`Exported ${summary.lfdWithin3Days} containers to .*export\\.csv`),
  );
  await shot('exported');
  const text = readFileSync(exportPath, 'utf8');
  expect(text.charCodeAt(0), 'UTF-8 byte order mark for Excel').toBe(0xfeff);
  const records = parse<Record<string, string>>(text.slice(1), { columns: true });
  expect(records.map((r) => r.Container)).toEqual(shown);
  // The columns are the ones on screen, in their order (those a narrower window leaves out are
  // not exported either). The Pickup column exports its answer, why, whose last free day it is
  // and when the terminal was checked (timestamps in UTC and port-local forms, as list-pins.test.ts
  // pins); Carrier exports the SCAC.
  const onScreen = (await grid.getByRole('columnheader').allTextContents()).map((t) => t.replace(/[▲▼]/g, '').trim());
  expect(onScreen.slice(0, 4)).toEqual(['Container', 'Status', 'Last free day', 'Pickup']);
  const exported: Record<string, string[]> = {
    Pickup: [
      'Pickup',
      'Pickup: why',
      'Last free day source',
      'Terminal checked (UTC)',
      'Terminal checked (port local time)',
    ],
    Carrier: ['Carrier SCAC'],
  };
  expect(Object.keys(records[0]!)).toEqual(onScreen.flatMap((header) => exported[header] ?? [header]));
});

test('the service’s refusal of a tracking request is shown next to the field it concerns', async ({ page, host }) => {
  await waitForFirstSync(host);
  // The service answers 422 with a pointer to the number (as a real one does for a number it rejects).
  await page.route('**/__host/ipc', async (route) => {
    const body = route.request().postDataJSON() as { channel: string };
    if (body.channel !== 'trackingRequests:create') return route.continue();
    return route.fulfill({
      json: {
        ok: false,
        error: {
          code: 'rejected',
          message: 'The Tracking API did not accept this.',
          fields: { requestNumber: "Request number 'MAEU000' is not a valid number" },
        },
      },
    });
  });
  await page.goto(`${host.url}#/tracking-requests`);
  await page.getByRole('button', { name: 'New tracking request' }).click();
  await page.getByRole('textbox', { name: 'Number', exact: true }).fill('MAEU0000000');
  const lines = await host.core.handlers['shippingLines:list'](undefined);
  const scac = lines.find((l) => l.attributes.bill_of_lading_tracking_support === true)!.attributes.scac as string;
  await page.getByRole('combobox', { name: 'Carrier' }).fill(scac);
  await page.getByRole('button', { name: 'Start tracking' }).click();
  const number = page.getByRole('textbox', { name: 'Number', exact: true });
  await expect(number).toHaveAttribute('aria-invalid', 'true');
  await expect(number).toHaveAccessibleDescription("Request number 'MAEU000' is not a valid number");
  await expect(number).toBeFocused();
  // Typing again clears the service's complaint.
  await number.fill('MAEU0000001');
  await expect(number).not.toHaveAttribute('aria-invalid', 'true');
});

test('an export of containers on hold says what the list shows, hold by hold', async ({ page, host, exportPath }) => {
  await waitForFirstSync(host);
  const filters = { onHold: true };
  await page.goto(`${host.url}#/containers?filters=${encodeURIComponent(JSON.stringify(filters))}&sort=number:asc`);
  const grid = page.getByRole('grid', { name: 'Containers' });
  const total = await host.core.handlers['containers:count']({ filters });
  const all = await host.core.handlers['containers:count']({ filters: {} });
  await expect(page.getByRole('status', { name: 'Row count' })).toHaveText(`${total} of ${all} containers`);
  await expectRowsLoaded(grid);
  const headers = await grid.getByRole('columnheader').allTextContents();
  const holdsColumn = headers.findIndex((text) => text.trim().startsWith('Holds'));
  expect(holdsColumn, 'the Holds column is shown').toBeGreaterThan(0);
  const firstRows = await grid.locator('[role="row"][data-index]').evaluateAll(
    (rows, holdsAt) =>
      rows
        .sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')))
        .map((row) => {
          const cells = [...row.querySelectorAll('[role="gridcell"]')];
          return {
            number: cells[0]?.textContent?.trim(),
            holds: [...cells[holdsAt]!.querySelectorAll('.tag')].map((t) => t.textContent),
          };
        }),
    holdsColumn,
  );
  await chooseExport(page, 'Export CSV');
  await expect(page.getByRole('status').filter({ hasText: 'Exported' })).toBeVisible();
  const records = parse<Record<string, string>>(readFileSync(exportPath, 'utf8').slice(1), { columns: true });
  expect(records).toHaveLength(total);
  for (const [index, row] of firstRows.entries()) {
    expect(records[index]!.Container).toBe(row.number);
    expect(records[index]!.Holds).toBe(row.holds.join('; '));
  }
});
