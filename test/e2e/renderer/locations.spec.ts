/**
 * Places in the views: Ctrl+K finds places (ports and metro areas) in a group of their
 * own and opens the shipments bound for one; a rail shipment's detail names its destination metro
 * area and its rail terminal's city, as does the container's detail. A screenshot of each.
 */
import type { ShipmentDetail } from '../../../src/shared/types';
import { expect, expectRowsLoaded, test, waitForFirstSync } from '../fixtures';

test('Ctrl+K finds a metro area in its own group and opens the shipments bound for it', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  // A metro area some shipment in the data is bound for.
  const options = await host.core.handlers['filters:options'](undefined);
  const found = await host.core.handlers['shipments:search']({ text: 'Chicago', limit: 8 });
  const metro = found.locations.find((l) => l.kind === 'metro_area')!;
  expect(metro).toMatchObject({ code: 'USCHI', name: 'Chicago' });
  const bound = options.destinations.find((o) => o.value === metro.code)!;
  expect(bound.count).toBeGreaterThan(0);

  await page.goto(host.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.keyboard.press('Control+k');
  const search = page.getByRole('combobox', { name: /Search BL, booking, container/ });
  await expect(search).toBeFocused();
  await search.fill('Chicago');
  const results = page.getByRole('listbox', { name: 'Results' });
  await expect(results.getByRole('presentation').filter({ hasText: 'Locations' })).toBeVisible();
  const option = results.getByRole('option', { name: /USCHI/ });
  await expect(option).toContainText('Chicago · IL · Metro area');
  await option.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('search-locations.png') });

  // Chosen with the keyboard: down to it, Enter.
  const options$ = results.getByRole('option');
  const index = (await options$.allTextContents()).findIndex((t) => t.includes('USCHI'));
  for (let i = 0; i < index; i++) {
    await page.keyboard.press('ArrowDown');
    await expect(options$.nth(i + 1)).toHaveAttribute('aria-selected', 'true');
  }
  await page.keyboard.press('Enter');
  const grid = page.getByRole('grid', { name: 'Shipments' });
  await expect(page.getByRole('status', { name: 'Row count' })).toHaveText(
    new RegExp(`^${bound.count} of \\d+ shipments$`),
  );
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('Chicago');
  await expectRowsLoaded(grid);
  await page.screenshot({ path: testInfo.outputPath('shipments-bound-for-chicago.png') });
});

test("a rail shipment's and its container's details name the destination metro area and the rail terminal's city", async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  const all = await host.core.handlers['shipments:list']({ filters: {}, page: { limit: 100 } });
  // A shipment bound for a metro area whose ramp is known, one with a box already there if any.
  const candidates: ShipmentDetail[] = [];
  for (const row of all.rows) {
    const detail = await host.core.handlers['shipments:get']({ id: row.id });
    if (detail.destination?.kind === 'metro_area' && detail.destinationTerminal) candidates.push(detail);
  }
  const arrived = (d: ShipmentDetail) =>
    d.containers.some((c) => c.milestones.some((m) => m.key === 'rail_arrived' && !m.estimated));
  const rail = candidates.find(arrived) ?? candidates[0];
  expect(rail, 'the demo world has a rail shipment whose ramp is known').toBeDefined();
  const { destination, destinationTerminal: railTerminal, shipment } = rail!;

  await page.goto(`${host.url}#/shipments/${shipment.id}`);
  const route = page.getByRole('region', { name: 'Route' });
  const leg = route.getByRole('listitem').filter({ hasText: 'Destination' });
  await expect(leg).toContainText(destination!.name!);
  await expect(leg).toContainText(destination!.code!);
  await expect(leg).toContainText('Metro area');
  await expect(leg).toContainText(`Rail terminal ${railTerminal!.name!} ${destination!.name!}`);
  await leg.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('shipment-destination-metro-area.png'), fullPage: true });

  const container =
    rail!.containers.find((c) => c.milestones.some((m) => m.key === 'rail_arrived' && !m.estimated)) ??
    rail!.containers[0]!;
  await page.goto(`${host.url}#/containers/${container.container.id}`);
  const terminal = page.getByRole('region', { name: 'Terminal' });
  await expect(terminal.getByRole('heading', { name: 'Rail terminal' })).toBeVisible();
  await expect(terminal).toContainText(`${destination!.name!} (${destination!.code!})`);
  if (arrived(rail!)) {
    // The events at the ramp are located in the metro area.
    const events = page.getByRole('region', { name: 'Transport events' });
    await expect(events.getByText(destination!.name!).first()).toBeVisible();
  }
  await page.screenshot({ path: testInfo.outputPath('container-rail-terminal.png'), fullPage: true });
});
