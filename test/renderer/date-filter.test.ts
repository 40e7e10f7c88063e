/**
 * A date chip's editor: a choice such as "Next 5 days" applies at once and is kept as days
 * counted from today; a custom day applies only once it is whole (Enter or leaving the field),
 * so a year half typed ("12/03/202" holds 0202-12-03) never reaches the list and says why under
 * its field. The chip, a printout and a saved view read the filter in words.
 */
import { fireEvent, render, screen } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import DateFilter from '../../src/renderer/src/components/DateFilter.svelte';
import FilterBar from '../../src/renderer/src/components/FilterBar.svelte';
import { defaultState } from '../../src/renderer/src/lib/list-state';
import { containersList } from '../../src/renderer/src/lib/lists';
import { describeFilters } from '../../src/renderer/src/lib/print';
import { newView, openView } from '../../src/renderer/src/lib/saved-views';
import type { DaysFilter } from '../../src/shared/date-filters';
import type { ListFilters } from '../../src/shared/requests';

const due = { overdue: 'Overdue', means: 'last free day passed, not picked up' };

describe('the date filter editor', () => {
  it('applies a choice at once, as days counted from today', async () => {
    const user = userEvent.setup();
    const onchange = vi.fn<(value: DaysFilter | undefined) => void>();
    // Monday, March 2, 2026, noon in UTC (the zone the tests run in).
    render(DateFilter, {
      label: 'Last free day',
      due,
      value: undefined,
      now: Date.parse('2026-03-02T12:00:00Z'),
      onchange,
    });
    await user.click(screen.getByRole('radio', { name: 'Next 5 days' }));
    expect(onchange).toHaveBeenLastCalledWith({ next: 5 });
    await user.click(
      screen.getByRole('radio', { name: 'Overdue', description: '(last free day passed, not picked up)' }),
    );
    expect(onchange).toHaveBeenLastCalledWith({ preset: 'overdue' });
  });

  it('says which days a relative choice covers today, and adds the overdue ones when asked', async () => {
    const user = userEvent.setup();
    const onchange = vi.fn<(value: DaysFilter | undefined) => void>();
    render(DateFilter, {
      label: 'Last free day',
      due,
      value: { next: 5 },
      now: Date.parse('2026-03-02T12:00:00Z'),
      onchange,
    });
    expect(screen.getByRole('radio', { name: 'Next 5 days' })).toHaveProperty('checked', true);
    expect(screen.getByText('As of today: Mon, Mar 2 – Sat, Mar 7.')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'Overdue ones too' }));
    expect(onchange).toHaveBeenLastCalledWith({ next: 5, overdue: true });
  });

  it('does not apply a custom day while its year is half typed, and says why when left so', async () => {
    const user = userEvent.setup();
    const onchange = vi.fn<(value: DaysFilter | undefined) => void>();
    render(DateFilter, { label: 'Last free day', due, value: undefined, onchange });
    await user.click(screen.getByRole('radio', { name: 'Custom range…' }));
    const from = screen.getByLabelText<HTMLInputElement>('From');

    // What the browser's date field holds as "12/03/2", "12/03/20", "12/03/202" are typed.
    for (const partial of ['0002-12-03', '0020-12-03', '0202-12-03']) {
      from.value = partial;
      await fireEvent.input(from);
      await fireEvent.change(from);
    }
    expect(onchange).not.toHaveBeenCalled();

    await fireEvent.blur(from);
    expect(onchange).not.toHaveBeenCalled();
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Finish the date: month, day and a 4-digit year.')).toBeTruthy();

    from.value = '2026-12-03';
    await fireEvent.input(from);
    expect(onchange).not.toHaveBeenCalled();
    await fireEvent.keyDown(from, { key: 'Enter' });
    expect(onchange).toHaveBeenCalledTimes(1);
    expect(onchange).toHaveBeenLastCalledWith({ from: '2026-12-03' });
    expect(from.getAttribute('aria-invalid')).toBeNull();
  });

  it('refuses a range that ends before it starts, and a count of days that is not whole', async () => {
    const user = userEvent.setup();
    const onchange = vi.fn<(value: DaysFilter | undefined) => void>();
    render(DateFilter, { label: 'Last free day', due, value: { from: '2026-12-05' }, onchange });
    expect(screen.getByRole('radio', { name: 'Custom range…' })).toHaveProperty('checked', true);
    const to = screen.getByLabelText<HTMLInputElement>('To');
    to.value = '2026-12-03';
    await fireEvent.input(to);
    await fireEvent.keyDown(to, { key: 'Enter' });
    expect(screen.getByText('The last day is before the first.')).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'Within N days' }));
    const days = screen.getByLabelText('Days from today');
    await user.type(days, '2.5{Enter}');
    expect(screen.getByText('Enter whole days, 1 to 366.')).toBeTruthy();
    await user.clear(days);
    await user.type(days, '10{Enter}');
    expect(onchange.mock.calls).toEqual([[{ next: 10 }]]);
  });
});

describe('a date filter on its chip, in print and in a saved view', () => {
  it('reads as words on the chip and keeps its choice as days counted from today', async () => {
    const user = userEvent.setup();
    const onchange = vi.fn<(filters: ListFilters<'containers'>) => void>();
    render(FilterBar<ListFilters<'containers'>>, {
      defs: containersList.filters,
      filters: { lfdDays: { next: 5, overdue: true } },
      options: null,
      onneedoptions: () => {},
      onchange,
    });
    const chip = screen.getByRole('button', { name: 'Last free day: Overdue or next 5 days' });
    await user.click(chip);
    await user.click(screen.getByRole('radio', { name: 'Today' }));
    expect(onchange).toHaveBeenLastCalledWith({ lfdDays: { preset: 'today' } });
  });

  it('replaces the instants an older view gave once edited', async () => {
    const user = userEvent.setup();
    const onchange = vi.fn<(filters: ListFilters<'containers'>) => void>();
    render(FilterBar<ListFilters<'containers'>>, {
      defs: containersList.filters,
      filters: { lfdFrom: '2026-12-03T00:00:00.000Z', lfdTo: '2026-12-05T23:59:59.000Z' },
      options: null,
      onneedoptions: () => {},
      onchange,
    });
    await user.click(screen.getByRole('button', { name: /^Last free day: / }));
    expect(screen.getByRole('radio', { name: 'Custom range…' })).toHaveProperty('checked', true);
    expect(screen.getByLabelText<HTMLInputElement>('From').value).toBe('2026-12-03');
    await user.click(screen.getByRole('radio', { name: 'Next 7 days' }));
    expect(onchange).toHaveBeenLastCalledWith({ lfdDays: { next: 7 } });
  });

  it('prints in words and is saved, and opened again, as days counted from today', () => {
    const filters = { lfdDays: { next: 5 }, etaDays: { preset: 'overdue' } } as const;
    expect(describeFilters(containersList, filters, null)).toEqual(['Last free day: Next 5 days', 'ETA: Late']);
    const state = { ...defaultState(containersList), filters };
    const view = newView(containersList, state, 'Pickups this week');
    expect(view.filters).toEqual({ lfdDays: { next: 5 }, etaDays: { preset: 'overdue' } });
    expect(openView(containersList, JSON.parse(JSON.stringify(view)) as typeof view)).toMatchObject({
      state: { filters },
      dropped: [],
    });
  });
});
