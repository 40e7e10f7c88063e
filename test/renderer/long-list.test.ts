// A long list keeps only the rows near where its table is: scrolled to the end of 30,000
// containers it holds a bounded number of them, and scrolled back it reads again the rows it put
// away (from the cursor that began their page) and shows them as before.
import { render, screen, waitFor } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';

import { KEPT_PAGES, PagedList } from '../../src/renderer/src/lib/list-reads.svelte';
import { containersList } from '../../src/renderer/src/lib/lists';
import { rowPutAway } from '../../src/renderer/src/lib/rows-put-away';
import ListView from '../../src/renderer/src/views/ListView.svelte';
import type { Page } from '../../src/shared/views';
import { bridge } from './bridge';
import { containerRow } from './container-row';
import { layOutScrollers } from './layout';

const ContainersList = ListView<'containers'>;
const TOTAL = 30_000;
const ROW = 36;
// What the list reads at most in one page, and the most rows it may hold at once.
const MORE = 500;
const HELD = KEPT_PAGES * MORE;

const numberOf = (i: number) => `BOX${String(i).padStart(7, '0')}`;

/** The store's keyset pages over TOTAL rows: the cursor is the index of the next row. */
function pageOf(limit: number, after?: string, prefix = 'c'): Page<{ id: string; number: string }> {
  const from = after === undefined ? 0 : Number(after);
  const to = Math.min(TOTAL, from + limit);
  const rows = Array.from({ length: to - from }, (_, k) => ({
    id: `${prefix}${from + k}`,
    number: numberOf(from + k),
  }));
  return { rows, next: to < TOTAL ? String(to) : null };
}

const held = (rows: readonly unknown[]) => rows.filter((row) => row !== undefined).length;

describe('PagedList over a long list', () => {
  it('holds at most its kept pages, and reads a page it put away again from the cursor that began it', async () => {
    const asked: { limit: number; after?: string }[] = [];
    const list = new PagedList((limit, after) => {
      asked.push({ limit, after });
      return Promise.resolve(pageOf(limit, after));
    });
    await list.load(
      false,
      () => Promise.resolve(TOTAL),
      () => {},
    );
    await list.need(TOTAL - 1);
    expect(list.rows).toHaveLength(TOTAL);
    expect(list.rows[TOTAL - 1]).toEqual({ id: `c${TOTAL - 1}`, number: numberOf(TOTAL - 1) });
    expect(held(list.rows)).toBeLessThanOrEqual(HELD);
    expect(list.rows[0]).toBeUndefined();

    asked.length = 0;
    await list.need(0);
    expect(asked).toEqual([{ limit: 100, after: undefined }]);
    expect(list.rows.slice(0, 100)).toEqual(pageOf(100).rows);

    asked.length = 0;
    await list.need(15_000);
    // The page that holds row 15,000 began after row 14,599 (100, then pages of 500).
    expect(asked).toEqual([{ limit: MORE, after: '14600' }]);
    expect(list.rows[15_000]).toEqual({ id: 'c15000', number: numberOf(15_000) });
    expect(held(list.rows)).toBeLessThanOrEqual(HELD);
    expect(list.rows).toHaveLength(TOTAL);
  });

  it('lets a read from the start win over a page being read again', async () => {
    let release: () => void = () => {};
    let slow = false;
    // The rows' ids after the data changed: a row read before it must not come back.
    let prefix = 'c';
    const list = new PagedList((limit, after) => {
      const page = pageOf(limit, after, prefix);
      return slow ? new Promise<typeof page>((done) => (release = () => done(page))) : Promise.resolve(page);
    });
    await list.load(
      false,
      () => Promise.resolve(TOTAL),
      () => {},
    );
    await list.need(TOTAL - 1);
    slow = true;
    const again = list.need(0);
    slow = false;
    prefix = 'changed';
    await list.load(
      false,
      () => Promise.resolve(TOTAL),
      () => {},
    );
    release();
    await again;
    expect(list.rows).toEqual(pageOf(100, undefined, 'changed').rows);
  });
});

describe('the table asks again for rows put away', () => {
  it('finds the one nearest the screen, below it first, then above', () => {
    const rows: (number | undefined)[] = Array.from({ length: 3000 }, (_, i) => i);
    expect(rowPutAway(rows, 1000, 1020, 400)).toBeNull();
    rows.fill(undefined, 0, 500);
    rows.fill(undefined, 1300, 1500);
    expect(rowPutAway(rows, 1000, 1020, 400)).toBe(1300);
    expect(rowPutAway(rows, 700, 720, 400)).toBe(499);
    expect(rowPutAway(rows, 2000, 2020, 400)).toBeNull();
  });
});

describe('a long list in its view', () => {
  beforeEach(() => {
    localStorage.clear();
    window.location.hash = '#/containers';
    layOutScrollers();
  });

  it('scrolled to its end and back, shows its first rows again', async () => {
    bridge.answer('containers:list', ({ page }) => {
      const { rows, next } = pageOf(page?.limit ?? 100, page?.after);
      return { rows: rows.map((r) => containerRow(r)), next };
    });
    bridge.answer('containers:count', () => TOTAL);
    bridge.answer('customFields:definitions', () => []);
    render(ContainersList, { def: containersList });
    await screen.findByRole('row', { name: `Container ${numberOf(0)}` });
    const grid = screen.getByRole('grid', { name: 'Containers' });

    grid.scrollTop = TOTAL * ROW;
    await screen.findByRole('row', { name: `Container ${numberOf(TOTAL - 1)}` }, { timeout: 15_000 });
    const readToTheEnd = bridge.argsOf('containers:list').length;

    grid.scrollTop = 0;
    await screen.findByRole('row', { name: `Container ${numberOf(0)}` });
    await waitFor(() => expect(screen.queryAllByRole('row', { name: 'Loading' })).toEqual([]));
    // Read again, from the start: the list had put those rows away.
    expect(bridge.argsOf('containers:list').slice(readToTheEnd)[0]?.page).toEqual({ limit: 100 });
  });
});
