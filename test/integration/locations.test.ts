/**
 * Locations: what the views show of a place reads the `locations` view, a
 * port or a metro area. Ctrl+K finds metro areas and ports by UN/LOCODE or name; a rail
 * shipment's detail names its destination metro area and its rail terminal's city; an event at
 * the ramp names the metro area, on the timeline and in the event list.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type {
  ContainerDetail,
  LookupRecord,
  SearchResults,
  ShipmentDetail,
  TransportEventRow,
} from '../../src/shared/types';
import type { ShipmentRow } from '../../src/shared/rows';
import type { Page } from '../../src/shared/views';
import { syncNow, testCore, value } from '../helpers/core';

describe('locations: ports and metro areas', () => {
  const { core } = testCore();
  afterAll(() => core.close());

  it('Ctrl+K finds a metro area by UN/LOCODE and by name, and ports beside it', async () => {
    expect((await syncNow(core, 'full')).state).toBe('idle');
    const byCode = await value<SearchResults>(core, 'shipments:search', { text: 'uschi', limit: 10 });
    expect(byCode.locations[0]).toMatchObject({ kind: 'metro_area', code: 'USCHI', name: 'Chicago', stateAbbr: 'IL' });
    const byName = await value<SearchResults>(core, 'shipments:search', { text: 'Chicag', limit: 10 });
    expect(byName.locations.map((l) => l.code)).toContain('USCHI');
    const ports = await value<SearchResults>(core, 'shipments:search', { text: 'Los Angeles', limit: 10 });
    expect(ports.locations).toEqual([expect.objectContaining({ kind: 'port', code: 'USLAX' })]);
    // Text no place holds finds none; one letter is too little to search places by.
    expect((await value<SearchResults>(core, 'shipments:search', { text: 'zzqx', limit: 10 })).locations).toEqual([]);
    expect((await value<SearchResults>(core, 'shipments:search', { text: 'c', limit: 10 })).locations).toEqual([]);
    // Looked up by id or code beside ports.
    const record = await value<LookupRecord>(core, 'metroAreas:get', { id: 'USCHI' });
    expect(record).toMatchObject({
      type: 'metro_area',
      title: 'Chicago',
      attributes: { time_zone: 'America/Chicago' },
    });
  });

  it("a rail shipment's detail names its destination metro area and its ramp's city; its events name the metro area", async () => {
    const page = await value<Page<ShipmentRow>>(core, 'shipments:list', { page: { limit: 100 } });
    const details = await Promise.all(page.rows.map((r) => value<ShipmentDetail>(core, 'shipments:get', { id: r.id })));
    const rail = details.filter((d) => d.destination?.kind === 'metro_area');
    expect(rail.length).toBeGreaterThan(0);
    for (const d of rail) {
      expect(d.destination!.code).toBe(d.shipment.destinationCode);
      expect(d.destination!.name).toBe(d.shipment.destination);
    }
    const ocean = details.find((d) => d.destination?.kind === 'port')!;
    expect(ocean.destinationTerminal).toBeNull();

    // A box that reached its ramp: the ramp names its metro area, the events there name the metro area.
    const arrived = rail
      .flatMap((d) => d.containers.map((c) => ({ d, c })))
      .find(({ c }) => c.milestones.some((m) => m.key === 'rail_arrived' && !m.estimated));
    expect(arrived).toBeDefined();
    const { d, c } = arrived!;
    expect(c.railTerminal).toMatchObject({ metroArea: { name: d.destination!.name, code: d.destination!.code } });
    expect(d.destinationTerminal).toEqual(c.railTerminal);
    const container = await value<ContainerDetail>(core, 'containers:get', { id: c.container.id });
    const railArrived = container.milestones.find((m) => m.key === 'rail_arrived')!;
    expect(railArrived.place).toBe(d.destination!.name);
    const { events } = await value<{ events: TransportEventRow[] }>(core, 'containers:events', { id: c.container.id });
    const atRamp = events.find((e) => e.event === 'container.transport.rail_arrived');
    expect(atRamp).toBeDefined();
    if (atRamp) {
      expect(atRamp.location).toBe(d.destination!.name);
      expect(atRamp.terminal).toBe(c.railTerminal!.name);
    }
    // Ocean terminals name no metro area.
    expect(c.terminal?.metroArea ?? null).toBeNull();
  });
});
