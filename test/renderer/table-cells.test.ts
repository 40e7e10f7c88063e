// A list row's cells as `fillRow` writes them into a row node that shows one row, then another
// (rows reuse nodes while the list scrolls): what the new row says, never what the old one said.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Column } from '../../src/renderer/src/lib/lists';
import { SKETCH, fillRow, prepareRows, titleOf } from '../../src/renderer/src/lib/table-cells';

interface Row {
  id: string;
  bl: string;
  carrier: string | null;
  eta: string | null;
  tags: string[];
}

const columns: Column<Row>[] = [
  {
    key: 'bl',
    label: 'Bill of lading',
    sticky: true,
    width: 136,
    exportKeys: [],
    cell: (r) => ({ kind: 'text', text: r.bl, mono: true }),
    shownByDefault: true,
  },
  {
    key: 'carrier',
    label: 'Carrier',
    width: 72,
    exportKeys: [],
    cell: (r) => ({ kind: 'text', text: r.carrier ?? '', title: r.carrier ? `Carrier ${r.carrier}` : undefined }),
    shownByDefault: true,
  },
  {
    key: 'eta',
    label: 'ETA',
    width: 120,
    exportKeys: [],
    cell: (r) => ({ kind: 'date', at: r.eta, zone: 'UTC', estimated: true }),
    shownByDefault: true,
  },
  {
    key: 'tags',
    label: 'Tags',
    width: 96,
    exportKeys: [],
    cell: (r) => ({ kind: 'tags', tags: r.tags }),
    shownByDefault: true,
  },
];

const context = { now: Date.parse('2026-11-23T12:00:00Z'), timeDisplay: 'port' as const };
const first: Row = { id: 'a', bl: 'MAEU1', carrier: 'MAEU', eta: '2026-11-25T06:00:00Z', tags: ['hot', 'collect'] };
const second: Row = { id: 'b', bl: 'CMDU2', carrier: null, eta: null, tags: [] };

let node: HTMLDivElement;
beforeEach(() => {
  node = document.createElement('div');
  document.body.replaceChildren(node);
});

const cells = () => [...node.querySelectorAll<HTMLElement>('[role="gridcell"]')];

describe('a row’s cells', () => {
  it('show one row, then the next row shown in the same node, with nothing left of the first', () => {
    fillRow(node, columns, first, context);
    expect(cells().map((c) => c.textContent)).toEqual(['MAEU1', 'MAEU', expect.stringMatching(/Nov 25/), 'hotcollect']);
    expect(cells().map((c) => c.className)).toEqual(['cell sticky mono', 'cell', 'cell date', 'cell tags']);
    expect(node.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-25T06:00:00Z');
    expect(node.querySelector('time')?.className).toBe('estimated');
    expect([...node.querySelectorAll('.tag')].map((t) => t.textContent)).toEqual(['hot', 'collect']);
    // The tooltip is made when the pointer comes over the cell (DataTable puts it on).
    const carrier = cells()[1]!;
    expect(carrier.hasAttribute('title')).toBe(false);
    expect(titleOf(carrier)).toBe('Carrier MAEU');
    carrier.title = titleOf(carrier)!;

    fillRow(node, columns, second, context);
    expect(cells()[1]).toBe(carrier);
    expect(cells().map((c) => c.textContent)).toEqual(['CMDU2', '', '', '']);
    expect(carrier.hasAttribute('title')).toBe(false);
    expect(titleOf(carrier)).toBeUndefined();
    expect(node.querySelector('time')).toBeNull();
    expect(node.querySelector('.tag')).toBeNull();
  });

  it('drawn in part while the list flies past: its identifying cell only, the rest hidden, then whole', () => {
    fillRow(node, columns, first, context);
    // The next row flies past: its bill of lading, and the node marked so the others hide.
    fillRow(node, columns, second, context, true);
    expect(node.classList.contains(SKETCH)).toBe(true);
    expect(cells()[0]!.textContent).toBe('CMDU2');
    expect(cells()[0]!.className).toBe('cell sticky mono');
    // Slowed: drawn whole, every cell its own.
    fillRow(node, columns, second, context);
    expect(node.classList.contains(SKETCH)).toBe(false);
    expect(cells().map((c) => c.textContent)).toEqual(['CMDU2', '', '', '']);
    // A row already drawn whole stays whole when the list speeds up again.
    fillRow(node, columns, second, context, true);
    expect(node.classList.contains(SKETCH)).toBe(false);
    // The next row in part, then Loading: no mark is left on a row on its way.
    fillRow(node, columns, first, context, true);
    expect(cells()[0]!.textContent).toBe('MAEU1');
    fillRow(node, columns, undefined, context, true);
    expect(node.classList.contains(SKETCH)).toBe(false);
    expect(cells().map((c) => c.textContent)).toEqual(['Loading…']);
  });

  it('says Loading while the row is on its way, and shows it once it came', () => {
    fillRow(node, columns, undefined, context);
    expect(cells().map((c) => c.textContent)).toEqual(['Loading…']);
    fillRow(node, columns, first, context);
    expect(cells().map((c) => c.textContent)[0]).toBe('MAEU1');
    expect(cells()).toHaveLength(4);
  });
});

describe('cells worked out ahead of the screen', () => {
  const texts = () => cells().map((c) => c.textContent);

  it('show what a row written straight shows', () => {
    const ahead: Row = { ...first, id: 'c', bl: 'MAEU3' };
    const done = prepareRows(columns, [first, ahead], 0, 2, context, () => true);
    expect(done).toBe(2);
    fillRow(node, columns, ahead, context);
    const other = document.createElement('div');
    fillRow(other, columns, { ...ahead }, context);
    expect(texts()).toEqual([...other.querySelectorAll('[role="gridcell"]')].map((c) => c.textContent));
    expect(texts()[0]).toBe('MAEU3');
  });

  it('stop when told to, and leave the rest to be worked out when shown', () => {
    let budget = 1;
    const rows: Row[] = [first, second, { ...first, id: 'd', bl: 'MAEU4' }];
    expect(prepareRows(columns, rows, 0, 3, context, () => budget-- > 0)).toBe(1);
    fillRow(node, columns, rows[2], context);
    expect(texts()[0]).toBe('MAEU4');
  });

  it('follow the time display and the clock, never what was worked out before', () => {
    const row: Row = { ...first, id: 'e', eta: '2026-11-25T06:00:00Z' };
    const zoned: Column<Row>[] = columns.map((c) =>
      c.key === 'eta' ? { ...c, cell: (r) => ({ kind: 'date', at: r.eta, zone: 'Asia/Shanghai' }) } : c,
    );
    prepareRows(zoned, [row], 0, 1, context, () => true);
    fillRow(node, zoned, row, context);
    expect(cells()[2]!.textContent?.replace(/\s/g, ' ')).toBe('Nov 25, 02:00 PM GMT+8');
    fillRow(node, zoned, row, { ...context, timeDisplay: 'local' });
    expect(cells()[2]!.textContent?.replace(/\s/g, ' ')).toBe('Nov 25, 06:00 AM UTC');
    // A year on, the date is over half a year away: its year shows.
    fillRow(node, zoned, row, { ...context, timeDisplay: 'local', now: context.now + 366 * 86_400_000 });
    expect(cells()[2]!.textContent?.replace(/\s/g, ' ')).toBe('Nov 25, 2026, 06:00 AM UTC');
  });
});
