import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContainerFilters, ShipmentFilters } from '../../src/shared/views';
import type { DashboardSummary, DataInfo, FilterOptions } from '../../src/shared/types';
import type { ShipmentRow } from '../../src/shared/rows';
import { containerStatuses } from '../../src/shared/status';
import { localDate } from '../../src/shared/zoned-time';
import { failure, syncNow, testCore, value } from '../helpers/core';

describe('what the renderer needs beyond the lists', () => {
  const { core } = testCore();
  afterAll(() => core.close());

  it('every dashboard tile’s filters list exactly the rows it counts', async () => {
    expect((await syncNow(core, 'full')).state).toBe('idle');
    const summary = await value<DashboardSummary>(core, 'dashboard:summary');
    const shipments = (filters: ShipmentFilters) => value<number>(core, 'shipments:count', { filters });
    const containers = (filters: ContainerFilters) => value<number>(core, 'containers:count', { filters });
    // The demo world (seed 'core-test') is laid out relative to now, so these tiles always count
    // something: a filter that matched nothing would not agree with them by accident.
    for (const tile of [
      'arrivingNext7Days',
      'etaSlipped',
      'arrivedNotAvailable',
      'lfdWithin3Days',
      'overdue',
      'pickupSoon',
    ] as const)
      expect(summary[tile], tile).toBeGreaterThan(0);
    expect(await shipments({})).toBe(60);
    expect(await shipments(summary.filters.arrivingNext7Days)).toBe(summary.arrivingNext7Days);
    expect(await shipments(summary.filters.etaSlipped)).toBe(summary.etaSlipped);
    expect(await containers(summary.filters.arrivedNotAvailable)).toBe(summary.arrivedNotAvailable);
    expect(await containers(summary.filters.lfdToday)).toBe(summary.lfdToday);
    expect(await containers(summary.filters.lfdWithin3Days)).toBe(summary.lfdWithin3Days);
    expect(await containers(summary.filters.overdue)).toBe(summary.overdue);
    expect(await containers(summary.filters.pickupSoon)).toBe(summary.pickupSoon);
    // "Next 5 days or overdue" holds every box the narrower tiles count, and is kept as days from today.
    expect(summary.pickupSoon).toBeGreaterThanOrEqual(Math.max(summary.lfdWithin3Days, summary.overdue));
    expect(summary.filters.pickupSoon).toEqual({
      statusGroups: ['not_picked_up'],
      lfdDays: { next: 5, overdue: true },
    });
    expect(summary.delaysByCarrier.length).toBeGreaterThan(0);
    for (const delay of summary.delaysByCarrier) {
      expect(delay.shipments).toBeGreaterThan(0);
      expect(await shipments({ ...summary.filters.etaSlipped, carriers: [delay.carrier] })).toBe(delay.shipments);
    }
    expect(summary.delaysByCarrier.reduce((n, d) => n + d.shipments, 0)).toBeLessThanOrEqual(summary.etaSlipped);
    // The filters are plain data the list's own schema accepts (they travel in a link).
    expect(summary.filters.lfdWithin3Days).toEqual(JSON.parse(JSON.stringify(summary.filters.lfdWithin3Days)));
  });

  it('counts holds by type as containers, one bar per type whatever its spelling, each bar listing what it counted', async () => {
    const summary = await value<DashboardSummary>(core, 'dashboard:summary');
    expect(summary.onHold.length).toBeGreaterThan(0);
    const keys = summary.onHold.map((bar) => bar.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(summary.onHold.map((bar) => bar.label)).size).toBe(keys.length);
    const waiting = containerStatuses.filter((status) => status !== 'picked_up' && status !== 'empty_returned');
    for (const bar of summary.onHold) {
      const listed = await value<number>(core, 'containers:count', {
        filters: { holdTypes: [bar.key], statuses: waiting },
      });
      expect(listed, bar.label).toBe(bar.count);
    }
  });

  it('counts arrivals per calendar day in the zone the dashboard shows, each day from local midnight', async () => {
    const { rows } = await value<{ rows: ShipmentRow[] }>(core, 'shipments:list', { page: { limit: 500 } });
    for (const zone of ['Europe/Amsterdam', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
      const summary = await value<DashboardSummary>(core, 'dashboard:summary', { zone });
      expect(summary.arrivalsZone).toBe(zone);
      const days = summary.arrivalsPerDay;
      expect(days).toHaveLength(28);
      expect(days[0]!.date).toBe(localDate(Date.parse(summary.generatedAt), zone));
      for (const [i, day] of days.entries()) {
        // The day starts at local midnight and ends where the next one starts.
        expect(localDate(Date.parse(day.from), zone), zone).toBe(day.date);
        expect(localDate(Date.parse(day.from) - 1, zone), zone).not.toBe(day.date);
        if (i > 0) expect(Date.parse(days[i - 1]!.to) + 1).toBe(Date.parse(day.from));
        const arriving = rows.filter((r) => !r.ata && r.eta && r.eta >= day.from && r.eta <= day.to);
        expect(day.count, `${zone} ${day.date}`).toBe(arriving.length);
      }
      expect(
        days.reduce((n, d) => n + d.count, 0),
        zone,
      ).toBeGreaterThan(0);
    }
    expect(await failure(core, 'dashboard:summary', { zone: 'Mars/Olympus' })).toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('offers each filter chip the values in the data, with the rows each value would show', async () => {
    const options = await value<FilterOptions>(core, 'filters:options');
    expect(options.carriers.length).toBeGreaterThan(1);
    const all = await value<number>(core, 'shipments:count', { filters: {} });
    for (const key of ['carriers', 'portsOfLading', 'portsOfDischarge', 'customers'] as const) {
      expect(options[key].length, key).toBeGreaterThan(1);
      for (const option of options[key].slice(0, 3)) {
        expect(option.count, `${key} ${option.value}`).toBeGreaterThan(0);
        expect(option.count, `${key} ${option.value}`).toBeLessThan(all);
        expect(await value<number>(core, 'shipments:count', { filters: { [key]: [option.value] } })).toBe(option.count);
      }
    }
    // Carriers and ports are named, not only coded.
    expect(options.carriers.every((o) => o.label.length > 0)).toBe(true);
    expect(options.portsOfDischarge.some((o) => o.label !== o.value)).toBe(true);
    expect(options.failedReasons.length).toBeGreaterThan(0);
    const reason = options.failedReasons[0]!;
    expect(reason.label).not.toBe(reason.value);
    expect(reason.count).toBeGreaterThan(0);
    expect(await value<number>(core, 'trackingRequests:count', { filters: { failedReasons: [reason.value] } })).toBe(
      reason.count,
    );
  });

  it('reports the local database and deletes it on request, leaving an empty one that syncs again', async () => {
    const before = await value<DataInfo>(core, 'data:info');
    expect(before.shipments).toBe(60);
    expect(before.bytes).toBeGreaterThan(100_000);
    expect(existsSync(before.path)).toBe(true);

    const after = await value<DataInfo>(core, 'data:deleteLocal');
    expect(after).toMatchObject({ path: before.path, shipments: 0, containers: 0, trackingRequests: 0 });
    expect(after.bytes).toBeLessThan(before.bytes);
    expect(await value<number>(core, 'shipments:count', { filters: {} })).toBe(0);

    expect((await syncNow(core, 'full')).state).toBe('idle');
    expect((await value<DataInfo>(core, 'data:info')).shipments).toBe(60);
  });

  it('refuses to delete the local data while a sync runs, and deletes nothing', async () => {
    await value(core, 'sync:start', { mode: 'full' });
    const error = await failure(core, 'data:deleteLocal');
    expect(error.code).toBe('busy');
    await value(core, 'sync:cancel');
    for (let i = 0; i < 200 && (await value<{ state: string }>(core, 'sync:status')).state === 'syncing'; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect((await value<DataInfo>(core, 'data:info')).shipments).toBe(60);
  });
});
