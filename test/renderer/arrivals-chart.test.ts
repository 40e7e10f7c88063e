/**
 * The arrivals chart names a day under the axis on each Monday and on the first day, but not on a
 * first day that a Monday follows within two columns: there the two names would print over each
 * other.
 */
import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ArrivalsChart from '../../src/renderer/src/components/ArrivalsChart.svelte';
import { formatChartDay } from '../../src/renderer/src/lib/format';

/** `n` days from `first` (YYYY-MM-DD), none arriving. */
function daysFrom(first: string, n: number) {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => {
    const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    return { date, count: i % 3, href: `#/shipments?day=${date}` };
  });
}

function named(container: HTMLElement): string[] {
  return [...container.querySelectorAll('.week')].map((el) => el.textContent?.trim() ?? '').filter(Boolean);
}

describe('ArrivalsChart day names', () => {
  it('names a Wednesday start and each Monday after it', () => {
    const { container } = render(ArrivalsChart, { days: daysFrom('2026-12-02', 14) });
    expect(named(container)).toEqual([
      formatChartDay('2026-12-02'),
      formatChartDay('2026-12-07'),
      formatChartDay('2026-12-14'),
    ]);
  });

  it.each([
    ['a Sunday', '2026-11-29', '2026-11-30'],
    ['a Saturday', '2026-11-28', '2026-11-30'],
  ])('leaves %s start to the Monday after it, so no two names overlap', (_, first, monday) => {
    const { container } = render(ArrivalsChart, { days: daysFrom(first, 10) });
    expect(named(container)).toEqual([formatChartDay(monday), formatChartDay('2026-12-07')]);
  });
});
