/**
 * What the live service sends beyond its reference, in the views: a rail shipment's detail shows
 * its original ETD beside the current one, its inland ETA and destination terminal, the
 * terminal's codes and the line's pages; a container that reached its ramp shows empty out and
 * delivery, the line's last free day and its facility holds and fees. A screenshot of each.
 */
import { holdLabel } from '../../../src/shared/labels';
import { pickupTruth } from '../../../src/shared/pickup';
import type { ContainerDetail, ShipmentDetail } from '../../../src/shared/types';
import { expect, test, waitForFirstSync } from '../fixtures';

test('shipment and container detail show what the live service adds', async ({ page, host }, testInfo) => {
  await waitForFirstSync(host);
  // Rail shipments (bound for a metro area), newest plans first: one with a box at its ramp.
  const all = await host.core.handlers['shipments:list']({ filters: {}, page: { limit: 500 } });
  const details: ShipmentDetail[] = [];
  for (const row of all.rows) {
    if (row.destinationCode === row.portOfDischargeCode) continue;
    details.push(await host.core.handlers['shipments:get']({ id: row.id }));
  }
  // At the ramp: facility holds in force or released, and the line's LFD.
  const inland = (c: ContainerDetail) =>
    (c.facilityHolds?.length ?? 0) > 0 && c.container.lineLastFreeDay !== null && c.delivered === null;
  const rail =
    details.find((d) => d.destinationTerminal?.metroArea && d.originalEtd && d.containers.some(inland)) ??
    details.find((d) => d.destinationTerminal?.metroArea && d.originalEtd);
  expect(rail, 'the demo world has a rail shipment with its ramp').toBeDefined();
  const { shipment, destinationTerminal, shippingLine, terminal } = rail!;

  await page.goto(`${host.url}#/shipments/${shipment.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(shipment.billOfLading!);
  const route = page.getByRole('region', { name: 'Route' });
  const origin = route.getByRole('listitem').filter({ hasText: 'Port of lading' });
  await expect(origin).toContainText('Original ETD');
  const destination = route.getByRole('listitem').filter({ hasText: 'Destination' });
  await expect(destination).toContainText(`Rail terminal ${destinationTerminal!.name!}`);
  if (rail!.destinationOriginalEta) await expect(destination).toContainText('Original ETA');
  if (terminal?.smdgCode) await expect(route).toContainText(`SMDG ${terminal.smdgCode}`);
  if (shippingLine?.trackingUrl) {
    // Shown as text to copy, never as a link the app would have to open.
    await expect(page.getByText(shippingLine.trackingUrl)).toBeVisible();
    await expect(page.getByRole('link', { name: shippingLine.trackingUrl })).toHaveCount(0);
  }
  await page.screenshot({ path: testInfo.outputPath('shipment-live-attributes.png'), fullPage: true });
  await destination.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('shipment-live-attributes-destination.png'), fullPage: true });

  const box = rail!.containers.find(inland) ?? rail!.containers[0]!;
  await page.goto(`${host.url}#/containers/${box.container.id}`);
  await expect(page.getByRole('heading', { level: 1, name: box.container.number! })).toBeVisible();
  const ends = page.getByRole('region', { name: 'Empty out and delivery' });
  await expect(ends).toContainText('Empty picked up at origin');
  await expect(ends).toContainText(box.delivered ? 'Delivered' : 'Not yet');
  // The line's last free day (beside the terminal's, or said once as both's when they agree), the
  // inland facility's holds that keep the box there, and its fees under what it will cost.
  const pickup = page.getByRole('region', { name: 'Can I pick it up?' });
  const truth = pickupTruth({ ...box.container, facilityHolds: box.facilityHolds }, Date.now());
  if (box.container.lineLastFreeDay) await expect(pickup).toContainText(/Line’s last free day|[Ss]hipping line\)/);
  if (box.facilityHolds !== null) {
    const held = truth.state === 'done' ? [] : box.facilityHolds.filter((h) => h.status !== 'released');
    for (const hold of held) await expect(pickup).toContainText(`${holdLabel(hold.name)} hold at the inland facility`);
    await expect(page.getByRole('region', { name: 'What will it cost?' })).toContainText('Facility fees');
  }
  // The container page's timeline stands in its own section, with the events in it.
  const timeline = page
    .getByRole('region', { name: 'Milestones and transport events' })
    .getByRole('list', { name: `Milestones of ${box.container.number!}` });
  await expect(timeline.getByRole('listitem').first()).toContainText('Empty picked up at origin');
  await page.screenshot({ path: testInfo.outputPath('container-live-attributes.png'), fullPage: true });
  await ends.scrollIntoViewIfNeeded();
  await timeline.getByRole('listitem').last().scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('container-live-attributes-timeline.png'), fullPage: true });
});
