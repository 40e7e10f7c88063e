/**
 * End to end against the sandbox: what the live service sends beyond its
 * reference reaches the detail views (original plans, delivery, the line's LFD, facility holds and
 * fees, terminal codes, the line's pages), and the shipments walk brings each shipment's
 * destination terminal, so a rail shipment names its ramp before any box has reached it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShipmentRow } from '../../src/shared/rows';
import type { ContainerDetail, ShipmentDetail } from '../../src/shared/types';
import type { Page } from '../../src/shared/views';
import { syncNow, testCore, testDemoService, value } from '../helpers/core';

describe('live-service attributes in the views', () => {
  const { core } = testCore({ demo: testDemoService({ seed: 'live-attributes', shipments: 120 }) });
  let details: ShipmentDetail[] = [];
  let rows: ShipmentRow[] = [];
  beforeAll(async () => {
    expect((await syncNow(core, 'full')).state).toBe('idle');
    rows = (await value<Page<ShipmentRow>>(core, 'shipments:list', { page: { limit: 200 } })).rows;
    details = await Promise.all(rows.map((r) => value<ShipmentDetail>(core, 'shipments:get', { id: r.id })));
  }, 60_000);
  afterAll(() => core.close());
  const containers = (): ContainerDetail[] => details.flatMap((d) => d.containers);

  it('names every rail shipment’s ramp in the list and the detail, before its boxes reach it', () => {
    const rail = details.filter((d) => d.destination?.kind === 'metro_area');
    expect(rail.length).toBeGreaterThan(3);
    for (const d of rail) {
      expect(d.destinationTerminal?.metroArea?.code).toBe(d.destination!.code);
      expect(rows.find((r) => r.id === d.shipment.id)!.destinationTerminal).toBe(d.destinationTerminal!.name);
    }
    // Only the shipments walk's include can have brought these: no event at the ramp is known yet.
    const notThereYet = rail.filter((d) =>
      d.containers.every((c) => !c.milestones.some((m) => m.key === 'rail_arrived' && !m.estimated)),
    );
    expect(notThereYet.length).toBeGreaterThan(0);
    for (const d of notThereYet) expect(d.destinationTerminal?.name).toBeTruthy();
  });

  it('gives the original departure and inland arrival beside the current ones, and the line’s pages', () => {
    for (const d of details) {
      expect(d.originalEtd).not.toBeNull();
      if (d.destination?.kind === 'metro_area') {
        expect(d.destinationOriginalEta).not.toBeNull();
        expect(d.destinationTimezone).toBe(d.destination.timeZone);
      }
      expect(d.shippingLine).toMatchObject({
        scac: d.shipment.carrierScac,
        trackingUrl: expect.stringMatching(/^https:\/\/.+\/tracking$/),
        contactUrl: expect.stringMatching(/^https:\/\/.+\/contact$/),
      });
      expect(d.terminal?.smdgCode).toBeTruthy();
      expect(d.terminal?.bicFacilityCode?.startsWith(d.shipment.portOfDischargeCode!)).toBe(true);
    }
  });

  it('shows delivery and empty out, the line’s LFD, and a rail box’s facility holds and fees', () => {
    const all = containers();
    const delivered = all.filter((c) => c.delivered);
    expect(delivered.length).toBeGreaterThan(0);
    for (const c of delivered) {
      const fullOut = c.milestones.find((m) => m.key === 'full_out')!;
      const delivery = c.milestones.find((m) => m.key === 'delivered')!;
      expect(Date.parse(delivery.at!)).toBeGreaterThan(Date.parse(fullOut.at!));
      expect(delivery.at).toBe(c.delivered!.at);
    }
    const departed = all.filter((c) => c.milestones.some((m) => m.key === 'vessel_departed' && !m.estimated));
    for (const c of departed) {
      expect(c.emptyOut).not.toBeNull();
      expect(c.milestones[0]).toMatchObject({ key: 'empty_out', at: c.emptyOut!.at, estimated: false });
    }
    // The line's LFD is a date; at the port it is the terminal's, here.
    const withLfd = all.filter((c) => c.container.lastFreeDay !== null);
    expect(withLfd.length).toBeGreaterThan(0);
    for (const c of withLfd) expect(c.container.lineLastFreeDay).toBe(c.container.lastFreeDay);

    const inland = all.filter((c) => c.facilityHolds !== null);
    const ocean = all.filter((c) => c.facilityHolds === null);
    expect(inland.length).toBeGreaterThan(0);
    for (const c of ocean) expect(c.facilityFeesTotal).toBeNull();
    expect(inland.some((c) => c.facilityHolds!.length > 0)).toBe(true);
    expect(inland.some((c) => (c.facilityFeesTotal ?? 0) > 0)).toBe(true);
    // A facility hold in force: not ready for pickup, whatever the ramp says of availability.
    for (const c of inland.filter((x) => x.facilityHolds!.some((h) => h.status === 'hold'))) {
      expect(c.container.pickupReady).toBe(false);
    }
  });
});
