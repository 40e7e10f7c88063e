// The containers list's last-free-day cell: what costs money (days overdue, days left) is said in
// full, the date beside it is short, and the whole date is in its hover text. That the badge is
// never cut off on screen is checked at 1366×768 in test/e2e/renderer/lists.spec.ts.
import { render, screen } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';

import DataTable from '../../src/renderer/src/components/DataTable.svelte';
import { defaultRates, estimateExposure } from '../../src/shared/exposure';
import type { Column } from '../../src/renderer/src/lib/lists';
import { layOutScrollers } from './layout';

interface Row {
  id: string;
  lfd: string;
  deadline: string;
  done: boolean;
}

const now = Date.parse('2026-11-23T12:00:00Z');
const columns: Column<Row>[] = [
  {
    key: 'lfd',
    label: 'Last free day',
    width: 235,
    exportKeys: ['pickup_lfd'],
    cell: (r) => ({ kind: 'lfd', date: r.lfd, deadline: r.deadline, done: r.done }),
    shownByDefault: true,
  },
];

function show(rows: Row[]) {
  render(DataTable<Row>, {
    label: 'Containers',
    columns,
    rows,
    total: rows.length,
    sort: { field: 'last_free_day', direction: 'asc' },
    now,
    onsort: () => {},
    onneed: () => {},
    rowLabel: (r) => r.id,
  });
}

beforeEach(() => layOutScrollers());

describe('the last-free-day cell', () => {
  it('says how many days overdue or left in full, beside a short date with the whole date on hover', () => {
    show([
      { id: 'late', lfd: '2026-10-07', deadline: '2026-10-07T23:59:00Z', done: false },
      { id: 'soon', lfd: '2026-11-25', deadline: '2026-11-25T23:59:00Z', done: false },
      { id: 'today', lfd: '2026-11-23', deadline: '2026-11-23T23:59:00Z', done: false },
    ]);
    const late = screen.getByRole('row', { name: 'late' });
    // Oct 7 to Nov 23: 47 calendar days past the last free day, as the demurrage estimate counts them.
    expect(late.querySelector('.left')?.textContent).toBe('Overdue 47 days');
    const date = late.querySelector('.lfd-date');
    expect(date?.textContent).toBe('Wed, Oct 7');
    expect(date?.getAttribute('title')).toBe('Last free day: Wed, Oct 7, 2026');
    expect(screen.getByRole('row', { name: 'soon' }).querySelector('.left')?.textContent).toBe('2 days left');
    expect(screen.getByRole('row', { name: 'today' }).querySelector('.left')?.textContent).toBe('Last day today');
  });

  it('counts the day after the last free day as the first day overdue, as the demurrage estimate does', () => {
    // The deadline is the end of the last free day; the estimate is the shared exposure module's.
    const lfd = '2026-11-22';
    show([{ id: 'day-after', lfd, deadline: '2026-11-23T00:00:00Z', done: false }]);
    const badge = screen.getByRole('row', { name: 'day-after' }).querySelector('.left')?.textContent;
    const estimate = estimateExposure(
      {
        status: 'available',
        carrierScac: null,
        terminals: [],
        lastFreeDay: lfd,
        zone: 'UTC',
        pickedUpAt: null,
        emptyReturnedAt: null,
      },
      defaultRates,
      now,
    );
    expect(estimate.demurrage?.days).toBe(1);
    expect(badge).toBe('Overdue 1 day');
  });

  it('shows no countdown for a box already picked up', () => {
    show([{ id: 'done', lfd: '2026-10-07', deadline: '2026-10-07T23:59:00Z', done: true }]);
    const row = screen.getByRole('row', { name: 'done' });
    expect(row.querySelector('.lfd-date')?.textContent).toBe('Wed, Oct 7');
    expect(row.querySelector('.left')).toBeNull();
  });
});
