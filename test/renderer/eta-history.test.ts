/**
 * The ETA history on the shipment page: the ETAs the syncs saw, oldest first, each with when it
 * was seen and its slip from the carrier's first ETA (the one baseline the app measures slips
 * from), said in one sentence for the chart; an ETA cleared by the arrival reads as the arrival;
 * no change, no chart.
 */
import { render, screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';

import EtaHistory from '../../src/renderer/src/components/EtaHistory.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { ChangeRow } from '../../src/shared/changes';
import { bridge } from './bridge';

function eta(id: number, old: string | null, now: string | null, seenAt: string): ChangeRow {
  return {
    id: String(id),
    resource: 'shipment',
    recordId: 's-1',
    number: 'MEDU00001234',
    shipmentId: 's-1',
    billOfLading: 'MEDU00001234',
    customer: null,
    carrierScac: 'MSCU',
    field: 'eta',
    detail: null,
    old,
    new: now,
    seenAt,
    zone: 'UTC',
  };
}

beforeEach(() => {
  app.settings = {
    theme: 'system',
    timeDisplay: 'local',
    syncIntervalMinutes: 15,
    rates: { currency: 'USD', sets: [] },
  };
});

describe('ETA history', () => {
  it('lists each ETA with when it was seen and its slip from the carrier’s first ETA, and draws them', async () => {
    bridge.answer('changes:forRecord', () => [
      eta(1, '2026-03-20T08:00:00Z', '2026-03-22T20:00:00Z', '2026-03-02T10:00:00.000Z'),
      eta(2, '2026-03-22T20:00:00Z', '2026-03-22T14:00:00Z', '2026-03-04T10:00:00.000Z'),
    ]);
    // The carrier first said Mar 18, before Quayside first synced the shipment (then Mar 20).
    render(EtaHistory, { shipmentId: 's-1', zone: 'UTC', originalEta: '2026-03-18T14:00:00Z' });
    const chart = await screen.findByRole('img');
    expect(chart.getAttribute('aria-label')).toMatch(
      /^The ETA changed twice since Quayside first synced this shipment; it is now Mar 22, 2026, 02:00\sPM UTC, 4 days later than first said \(the carrier’s first ETA: Mar 18, 2026, 02:00\sPM UTC\)\.$/,
    );
    expect(bridge.argsOf('changes:forRecord')).toEqual([{ id: 's-1', fields: ['eta'] }]);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Seen', 'ETA', 'Against first ETA']);
    const rows = within(table).getAllByRole('row').slice(1);
    // Every row from the same baseline, the first ETA the carrier gave; never from the one before.
    expect(rows.map((r) => within(r).getAllByRole('cell').at(-1)!.textContent)).toEqual([
      '1.8 days later',
      '4.3 days later',
      '4 days later',
    ]);
    expect(rows[0]!.textContent).toContain('When first synced');
    expect(chart.querySelectorAll('circle')).toHaveLength(3);
    expect(chart.querySelector('line.baseline')).not.toBeNull();
  });

  it('tells an ETA cleared by the arrival as the arrival, its slip from the same baseline', async () => {
    bridge.answer('changes:forRecord', () => [eta(1, '2026-03-20T08:00:00Z', null, '2026-03-21T10:00:00.000Z')]);
    render(EtaHistory, {
      shipmentId: 's-1',
      zone: 'UTC',
      ata: '2026-03-20T09:30:00Z',
      originalEta: '2026-03-19T09:30:00Z',
    });
    const summary = await screen.findByText(/^The ETA changed once since Quayside first synced this shipment;/);
    expect(summary.textContent).toMatch(
      /the vessel arrived Mar 20, 2026, 09:30\sAM UTC, 1 day later than first said \(the carrier’s first ETA: Mar 19, 2026, 09:30\sAM UTC\)\.$/,
    );
    const last = within(screen.getByRole('table')).getAllByRole('row').at(-1)!;
    expect(last.textContent).toMatch(/Arrived Mar 20, 2026, 09:30\sAM UTC/);
    expect(within(last).getAllByRole('cell').at(-1)!.textContent).toBe('1 day later');
    // The arrival is the chart's last point.
    expect(screen.getByRole('img').querySelectorAll('circle')).toHaveLength(2);
  });

  it('without the carrier’s first ETA, claims no slip', async () => {
    bridge.answer('changes:forRecord', () => [
      eta(1, '2026-03-20T08:00:00Z', '2026-03-22T20:00:00Z', '2026-03-02T10:00:00.000Z'),
    ]);
    render(EtaHistory, { shipmentId: 's-1', zone: 'UTC' });
    const chart = await screen.findByRole('img');
    expect(chart.getAttribute('aria-label')).toMatch(
      /^The ETA changed once since Quayside first synced this shipment; it is now Mar 22, 2026, 08:00\sPM UTC\.$/,
    );
    expect(within(screen.getByRole('table')).getAllByRole('columnheader')).toHaveLength(2);
    expect(screen.queryByText(/later|earlier/)).toBeNull();
  });

  it('says the ETA has not changed, without a chart, when no sync saw it move', async () => {
    bridge.answer('changes:forRecord', () => []);
    render(EtaHistory, { shipmentId: 's-1', zone: 'UTC' });
    expect(await screen.findByText('The ETA has not changed since Quayside first synced this shipment.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });
});
