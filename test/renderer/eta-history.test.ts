/**
 * The ETA history on the shipment page (issue 16 item 2): the ETAs the syncs saw, oldest first,
 * each with when it was seen and how far it moved, said in one sentence for the chart; an ETA the
 * carrier no longer gives (the vessel arrived) is said so; no change, no chart.
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
  it('lists each ETA with when it was seen and how far it moved, and draws them', async () => {
    bridge.answer('changes:forRecord', () => [
      eta(1, '2026-03-20T08:00:00Z', '2026-03-22T20:00:00Z', '2026-03-02T10:00:00.000Z'),
      eta(2, '2026-03-22T20:00:00Z', '2026-03-22T14:00:00Z', '2026-03-04T10:00:00.000Z'),
    ]);
    render(EtaHistory, { shipmentId: 's-1', zone: 'UTC' });
    const chart = await screen.findByRole('img');
    expect(chart.getAttribute('aria-label')).toMatch(
      /^ETA moved twice, from Mar 20, 2026, 08:00\sAM UTC to Mar 22, 2026, 02:00\sPM UTC: 2\.3 days later in all\.$/,
    );
    expect(bridge.argsOf('changes:forRecord')).toEqual([{ id: 's-1', fields: ['eta'] }]);
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').at(-1)!.textContent)).toEqual([
      '',
      '2.5 days later',
      '6 h earlier',
    ]);
    expect(rows[0]!.textContent).toContain('When first synced');
    expect(chart.querySelectorAll('circle')).toHaveLength(3);
  });

  it('says when the carrier gives no ETA any more because the vessel arrived', async () => {
    bridge.answer('changes:forRecord', () => [eta(1, '2026-03-20T08:00:00Z', null, '2026-03-21T10:00:00.000Z')]);
    render(EtaHistory, { shipmentId: 's-1', zone: 'UTC', ata: '2026-03-20T09:30:00Z' });
    const summary = await screen.findByText(/^ETA changed once; the carrier gives none now/);
    expect(summary.textContent).toMatch(/the vessel arrived Mar 20, 2026, 09:30\sAM UTC\.$/);
  });

  it('says the ETA has not changed, without a chart, when no sync saw it move', async () => {
    bridge.answer('changes:forRecord', () => []);
    render(EtaHistory, { shipmentId: 's-1', zone: 'UTC' });
    expect(await screen.findByText('The ETA has not changed since Quayside first synced this shipment.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });
});
