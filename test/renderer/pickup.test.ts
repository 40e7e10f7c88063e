/**
 * Pickup truth in the renderer: the container page's Pickup card in each state,
 * and the Containers list's Pickup and Last free day cells, which show no countdown on terminal
 * data older than the Settings limit.
 */
import { render, screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';
import PickupCard from '../../src/renderer/src/components/PickupCard.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import { containersList } from '../../src/renderer/src/lib/lists-containers';
import { fillRow, titleOf } from '../../src/renderer/src/lib/table-cells';
import type { ContainerRow } from '../../src/shared/rows';
import type { ContainerDetail, Settings } from '../../src/shared/types';
import { containerRow } from './container-row';

// Noon in Los Angeles on 10 March 2026.
const now = Date.parse('2026-03-10T19:00:00Z');
const hoursAgo = (h: number) => new Date(now - h * 3_600_000).toISOString();

const row = (overrides: Partial<ContainerRow> = {}): ContainerRow =>
  containerRow({
    lastFreeDay: '2026-03-09',
    lfdDeadlineAt: '2026-03-10T07:00:00Z',
    lfdTimezone: 'America/Los_Angeles',
    lineLastFreeDay: '2026-03-12',
    lfdSource: 'terminal',
    terminalCheckedAt: hoursAgo(2),
    ...overrides,
  });
const detailOf = (container: ContainerRow): ContainerDetail => ({
  container,
  milestones: [],
  emptyOut: null,
  delivered: null,
  facilityHolds: container.facilityHolds,
  facilityFeesTotal: null,
  terminal: null,
  railCarriers: { pod: null, inland: null },
  railTerminal: null,
  location: null,
  eventsSyncedAt: null,
});
const settings = (terminalStaleHours?: number): Settings => ({
  theme: 'system',
  timeDisplay: 'local',
  syncIntervalMinutes: 15,
  rates: { currency: 'USD', sets: [] },
  terminalStaleHours,
});

beforeEach(() => {
  app.settings = settings(24);
});

// The container page puts it under "Can I pick it up?"; a shipment's box cards show it compact.
const card = () => screen.getByTestId('pickup-card');

describe('the Pickup card', () => {
  it('says ready, with the overdue badge, the LFD’s source and the line’s beside it, on fresh data', () => {
    render(PickupCard, { detail: detailOf(row()), now });
    expect(card().querySelector('.verdict')?.textContent).toMatch(/Ready for pickup\s*Overdue 1 day/);
    expect(within(card()).getByText('Overdue 1 day')).toBeTruthy();
    expect(card().textContent).toContain('(Terminal)');
    expect(card().textContent).toContain('(Shipping line)');
    expect(card().textContent).toContain('2 h ago');
    expect(within(card()).queryByRole('note')).toBeNull();
  });

  it('lists why a box is not ready: a hold at the terminal, one at the ramp, fees', () => {
    const c = row({
      availableForPickup: false,
      holds: [{ name: 'customs', status: 'hold', description: null }],
      facilityHolds: [{ name: 'usda', status: 'hold', description: null }],
      feesTotal: 120,
      lfdSource: 'rail',
    });
    render(PickupCard, { detail: detailOf(c), now });
    expect(card().querySelector('.verdict strong')?.textContent).toBe('Not ready');
    const reasons = within(card()).getByRole('list', { name: 'Why not ready' });
    expect(
      within(reasons)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Not released by the terminal',
      'Customs hold',
      'USDA hold at the inland facility',
      '120.00 USD in terminal fees to pay',
    ]);
    expect(card().textContent).toContain('(Rail ramp)');
  });

  it('says it cannot tell on data 31 h old, plainly, with no overdue badge', () => {
    render(PickupCard, { detail: detailOf(row({ terminalCheckedAt: hoursAgo(31) })), now });
    expect(card().querySelector('.verdict')?.textContent?.replace(/\s+/g, ' ').trim()).toBe('Can’t tell data 31 h old');
    expect(within(card()).getByRole('note').textContent).toContain(
      'Terminal last checked 31 h ago — availability may have changed',
    );
    expect(within(card()).queryByText(/Overdue/)).toBeNull();
    expect(within(card()).queryByText('Ready for pickup')).toBeNull();
  });

  it('takes the limit from Settings', () => {
    app.settings = settings(48);
    render(PickupCard, { detail: detailOf(row({ terminalCheckedAt: hoursAgo(31) })), now });
    expect(card().querySelector('.verdict strong')?.textContent).toBe('Ready for pickup');
    expect(card().textContent).toContain('older than 48 h');
  });

  it('says a last free day the line shares with the terminal once, as both', () => {
    render(PickupCard, { detail: detailOf(row({ lineLastFreeDay: '2026-03-09' })), now });
    expect(card().textContent).toContain('(Terminal and shipping line)');
    expect(within(card()).queryByText('Line’s last free day')).toBeNull();
    expect(within(card()).getAllByText('Last free day')).toHaveLength(1);
  });

  it('on stale data, says what the terminal said when last checked, without calling it a reason', () => {
    const c = row({
      terminalCheckedAt: hoursAgo(31),
      availableForPickup: false,
      holds: [{ name: 'customs', status: 'hold', description: 'Exam ordered' }],
    });
    render(PickupCard, { detail: detailOf(c), now });
    expect(within(card()).queryByRole('list', { name: 'Why not ready' })).toBeNull();
    const said = within(card()).getByText('Last check said').nextElementSibling;
    expect(said?.textContent).toBe('not available for pickup; Customs hold');
  });

  it('tells what a hold says beside it, and in compact form leaves out the check and the limit', () => {
    const c = row({ holds: [{ name: 'customs', status: 'hold', description: 'Exam ordered' }] });
    render(PickupCard, { detail: detailOf(c), now, compact: true });
    const reasons = within(card()).getByRole('list', { name: 'Why not ready' });
    expect(within(reasons).getByRole('listitem').textContent).toBe('Customs hold: Exam ordered');
    expect(within(card()).queryByText('Terminal checked')).toBeNull();
    expect(card().textContent).not.toContain('is not trusted');
  });

  it('counts the days left beside a last free day further off than the urgency badges', () => {
    render(PickupCard, { detail: detailOf(row({ lastFreeDay: '2026-03-17', lineLastFreeDay: null })), now });
    expect(card().querySelector('.urgency')).toBeNull();
    expect(within(card()).getByText('7 days left')).toBeTruthy();
  });

  it('says picked up for a box that left, whatever the data’s age', () => {
    render(PickupCard, { detail: detailOf(row({ status: 'picked_up', terminalCheckedAt: null })), now });
    expect(card().querySelector('.verdict strong')?.textContent).toBe('Picked up');
    expect(within(card()).queryByRole('note')).toBeNull();
  });
});

describe('the Containers list’s pickup cells', () => {
  const columns = containersList.columns.filter((c) => c.key === 'lfd' || c.key === 'pickup');

  function cells(r: ContainerRow, staleHours?: number) {
    const node = document.createElement('div');
    fillRow(node, columns, r, { now, timeDisplay: 'local', staleHours });
    const [lfd, pickup] = [...node.children] as HTMLElement[];
    return { lfd: lfd!, pickup: pickup! };
  }

  it('shows Ready and the overdue countdown on fresh data', () => {
    const { lfd, pickup } = cells(row());
    expect(pickup.textContent).toBe('Ready');
    expect(pickup.querySelector('.badge.good')).not.toBeNull();
    expect(lfd.querySelector('.left.overdue')?.textContent).toBe('Overdue 1 day');
  });

  it('shows Can’t tell and no countdown on stale data, the reason on hover', () => {
    const { lfd, pickup } = cells(row({ terminalCheckedAt: hoursAgo(31) }));
    expect(pickup.textContent).toBe('Can’t tell');
    expect(titleOf(pickup)).toBe('Terminal last checked 31 h ago — availability may have changed');
    expect(lfd.querySelector('.left.overdue')).toBeNull();
    expect(lfd.querySelector('.left.unsure')?.textContent).toBe('data old');
    // The same row with a 48-hour limit: fresh again.
    expect(cells(row({ terminalCheckedAt: hoursAgo(31) }), 48).pickup.textContent).toBe('Ready');
  });

  it('calls a box ready for pickup in the “Ready for pickup” column only where Pickup says Ready', () => {
    const ready = containersList.columns.filter((c) => c.key === 'pickupReady');
    const cell = (r: ContainerRow) => {
      const node = document.createElement('div');
      fillRow(node, ready, r, { now, timeDisplay: 'local', staleHours: 24 });
      return node.firstElementChild as HTMLElement;
    };
    expect(cell(row({ availableForPickup: true, pickupReady: true })).textContent).toBe('Ready');
    // The stored flag says ready (available, no hold), but the terminal data is 31 h old.
    expect(
      cell(row({ availableForPickup: true, pickupReady: true, terminalCheckedAt: hoursAgo(31) })).textContent,
    ).toBe('');
  });

  it('exports what the column shows', () => {
    expect(containersList.columns.find((c) => c.key === 'pickup')?.exportKeys).toEqual([
      'pickup',
      'pickup_detail',
      'lfd_source',
      'terminal_checked_at',
      'terminal_checked_at_local',
    ]);
  });
});
