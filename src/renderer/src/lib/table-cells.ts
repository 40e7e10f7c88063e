/**
 * A list row's cells, written straight into the row's node. Rows keep their node while the list
 * scrolls (DataTable renders row i in slot i mod n), so a row scrolling in only rewrites what
 * differs from the row that left: text in place, a date's `<time>`, a badge, tags. One element
 * per cell with its text straight in it (a badge, tag or date inside where it has one): every row
 * scrolling in lays out again, so each node and box costs on every frame of a fling, and so does
 * each reactive update per cell, which this replaces with one plain function call per row.
 */
import type { Cell, Column } from './lists-model';
import { displayZone, formatCalendarDate, formatCellDateTime, formatDaysLeft, formatShortCalendarDate } from './format';
import type { TimeDisplay } from '../../../shared/types';
import { pickupStateLabels, pickupTruth } from '../../../shared/pickup';

export interface CellContext {
  now: number;
  timeDisplay: TimeDisplay;
  /** Terminal data older than this is stale (Settings); absent: the default 24 h. */
  staleHours?: number;
}

const pickupTone = { ready: 'good', not_ready: 'warn', unknown: 'neutral', done: 'neutral' } as const;

/** What a cell shows last, so a row that scrolls in leaves a cell alone when it shows the same. */
const shown = new WeakMap<Element, string>();
/**
 * A cell's tooltip, put on the cell when the pointer comes over it (`titleOf`): a title attribute
 * changed on every cell that scrolls in makes the browser restyle each of them (a selector in the
 * browser's own style sheet reads `title`).
 */
const titles = new WeakMap<Element, string>();
/** The columns a row's cells were made for: other columns (chosen, moved) make them again. */
const madeFor = new WeakMap<Element, readonly unknown[]>();

/** The class of a column's cells: made once per column rather than per cell and row. */
export function cellClass(column: { align?: 'end'; sticky?: boolean }): string {
  return `cell${column.align === 'end' ? ' end' : ''}${column.sticky ? ' sticky' : ''}`;
}

/**
 * What a cell shows, worked out from its row: the text (dates formatted, pickup answered), the
 * class and the key `fillRow` compares with what the cell shows. Rows do not change while they are
 * listed (a new page or a change is a new row object), so a row's cells are worked out once for a
 * context and kept (`prepareRows` does it for rows ahead of the screen while the page is idle):
 * a row scrolling in then only has its nodes written.
 */
type Shown =
  | { kind: 'text'; key: string; className: string; title: string | undefined; text: string }
  | {
      kind: 'date';
      key: string;
      className: string;
      at: string | null;
      zone: string;
      timeClass: string;
      text: string;
    }
  | { kind: 'badge'; key: string; className: string; title: string | undefined; badge: string; label: string }
  | { kind: 'tags'; key: string; className: string; tags: string[] }
  | { kind: 'lfd'; key: string; className: string; date: string | null; whole: string; left: string; unsure: boolean };

interface Prepared {
  columns: readonly unknown[];
  now: number;
  timeDisplay: TimeDisplay;
  staleHours: number | undefined;
  cells: Shown[];
}

/**
 * Rows worked out, by row object; bounded (a fling through 100k rows would otherwise keep them
 * all): the rows on screen and those just ahead fit many times over.
 */
const prepared = new Map<object, Prepared>();
const MAX_PREPARED = 4000;

function preparedCells<Row>(columns: readonly Column<Row>[], row: Row, context: CellContext): Shown[] {
  const key = row as object;
  const known = prepared.get(key);
  if (
    known &&
    known.columns === columns &&
    known.now === context.now &&
    known.timeDisplay === context.timeDisplay &&
    known.staleHours === context.staleHours
  ) {
    return known.cells;
  }
  const cells = columns.map((column) => prepare(cellClass(column), column.cell(row), context));
  if (prepared.size >= MAX_PREPARED) prepared.clear();
  prepared.set(key, {
    columns,
    now: context.now,
    timeDisplay: context.timeDisplay,
    staleHours: context.staleHours,
    cells,
  });
  return cells;
}

/**
 * Works out the cells of `rows[from]` on, until `more()` says to stop (an idle period's deadline)
 * or `to` is reached; returns the index it stopped at.
 */
export function prepareRows<Row>(
  columns: readonly Column<Row>[],
  rows: readonly (Row | undefined)[],
  from: number,
  to: number,
  context: CellContext,
  more: () => boolean,
): number {
  let index = from;
  const end = Math.min(to, rows.length);
  while (index < end && more()) {
    const row = rows[index];
    if (row !== undefined) preparedCells(columns, row, context);
    index++;
  }
  return index;
}

/** The row a node shows whole; a node in `SKETCH` shows another row in part, or this one. */
const drawn = new WeakMap<Element, unknown>();
/** The class of a row drawn in part (its identifying cell only) while the list flies past it. */
export const SKETCH = 'sketch';

/**
 * Writes `row`'s cells into the row's node (a "Loading…" cell while the row is on its way). With
 * `sketch`, a row the node does not already show whole gets its identifying cell only (the
 * column that sticks, if shown) and the class SKETCH, which hides its other cells (they
 * still hold the row before's text): what a list flung faster than anyone reads draws (see
 * DataTable), a fifth of a whole row's work. Asked again without `sketch`, it is drawn whole.
 */
export function fillRow<Row>(
  node: HTMLElement,
  columns: readonly Column<Row>[],
  row: Row | undefined,
  context: CellContext,
  sketch = false,
): void {
  if (row === undefined) {
    if (madeFor.get(node) !== undefined || node.childElementCount === 0) {
      madeFor.delete(node);
      drawn.delete(node);
      node.classList.remove(SKETCH);
      const loading = gridcell('cell loading');
      loading.textContent = 'Loading…';
      node.replaceChildren(loading);
    }
    return;
  }
  if (madeFor.get(node) !== columns) {
    madeFor.set(node, columns);
    drawn.delete(node);
    node.replaceChildren(
      ...columns.map((_, i) => {
        const cell = gridcell('');
        // Its column's width, set on the table (DataTable): a resize restyles, never remakes, cells.
        cell.style.width = `var(--column-${i})`;
        cell.style.left = `var(--left-${i})`;
        return cell;
      }),
    );
  }
  if (sketch && drawn.get(node) !== row) {
    drawn.delete(node);
    const at = columns.findIndex((column) => column.sticky === true);
    const column = columns[at];
    const element = node.children[at] as HTMLElement | undefined;
    if (column && element) {
      const cell = prepare(cellClass(column), column.cell(row), context);
      if (shown.get(element) !== cell.key) {
        shown.set(element, cell.key);
        writeCell(element, cell);
      }
    }
    if (!node.classList.contains(SKETCH)) node.classList.add(SKETCH);
    return;
  }
  const cells = preparedCells(columns, row, context);
  let element = node.firstElementChild as HTMLElement | null;
  for (const cell of cells) {
    if (!element) break;
    if (shown.get(element) !== cell.key) {
      shown.set(element, cell.key);
      writeCell(element, cell);
    }
    element = element.nextElementSibling as HTMLElement | null;
  }
  drawn.set(node, row);
  if (node.classList.contains(SKETCH)) node.classList.remove(SKETCH);
}

function gridcell(className: string): HTMLDivElement {
  const div = document.createElement('div');
  div.setAttribute('role', 'gridcell');
  div.className = className;
  return div;
}

function prepare(base: string, cell: Cell, context: CellContext): Shown {
  switch (cell.kind) {
    case 'text':
      return {
        kind: 'text',
        key: `t\u0000${base}\u0000${cell.mono ? 1 : 0}\u0000${cell.title ?? ''}\u0000${cell.text}`,
        className: cell.mono ? `${base} mono` : base,
        title: cell.title,
        text: cell.text,
      };
    case 'date': {
      const zone = displayZone(context.timeDisplay, cell.zone);
      const text = cell.at ? formatCellDateTime(cell.at, zone, context.now) : '';
      return {
        kind: 'date',
        key: `d\u0000${base}\u0000${cell.at ?? ''}\u0000${zone ?? ''}\u0000${cell.estimated ? 1 : 0}\u0000${text}`,
        className: `${base} date`,
        at: cell.at,
        zone: zone ?? '',
        timeClass: cell.estimated ? 'estimated' : '',
        text,
      };
    }
    case 'status':
      return {
        kind: 'badge',
        key: `s\u0000${base}\u0000${cell.tone}\u0000${cell.label}`,
        className: base,
        title: undefined,
        badge: `badge ${cell.tone}`,
        label: cell.label,
      };
    case 'tags':
      return {
        kind: 'tags',
        key: `g\u0000${base}\u0000${cell.tags.join('\u0000')}`,
        className: `${base} tags`,
        tags: cell.tags,
      };
    case 'lfd': {
      // No countdown on terminal data too old to support it: the box may be gone, or released.
      const unsure =
        cell.pickup !== undefined && pickupTruth(cell.pickup, context.now, context.staleHours).state === 'unknown';
      const left = cell.date && !cell.done && !unsure ? formatDaysLeft(cell.deadline, context.now) : '';
      return {
        kind: 'lfd',
        key: `l\u0000${base}\u0000${cell.date ?? ''}\u0000${left}\u0000${unsure ? 1 : 0}`,
        className: `${base} lfd`,
        date: cell.date ? formatShortCalendarDate(cell.date) : null,
        whole: cell.date ? `Last free day: ${formatCalendarDate(cell.date)}` : '',
        left,
        unsure,
      };
    }
    case 'pickup': {
      const truth = pickupTruth(cell.input, context.now, context.staleHours);
      // The hidden "Ready for pickup" column: Ready or nothing.
      if (cell.readyOnly && truth.state !== 'ready') {
        return { kind: 'text', key: `p\u0000${base}\u0000`, className: base, title: undefined, text: '' };
      }
      const title = truth.staleNote && truth.state === 'unknown' ? truth.staleNote : truth.headline;
      return {
        kind: 'badge',
        key: `p\u0000${base}\u0000${truth.state}\u0000${title}`,
        className: base,
        title,
        badge: `badge ${pickupTone[truth.state]}`,
        label: pickupStateLabels[truth.state],
      };
    }
  }
}

function writeCell(element: HTMLElement, cell: Shown): void {
  setClass(element, cell.className);
  switch (cell.kind) {
    case 'text':
      setTitle(element, cell.title);
      setText(element, cell.text);
      return;
    case 'date': {
      setTitle(element, undefined);
      if (!cell.at) {
        element.replaceChildren();
        return;
      }
      let time = element.firstChild;
      if (!(time instanceof HTMLTimeElement) || element.childNodes.length !== 1) {
        time = document.createElement('time');
        element.replaceChildren(time);
      }
      const node = time as HTMLTimeElement;
      node.dateTime = cell.at;
      node.dataset.zone = cell.zone;
      setClass(node, cell.timeClass);
      // Made on hover (DataTable): the node may have shown another row when last hovered.
      if (node.hasAttribute('title')) node.removeAttribute('title');
      setText(node, cell.text);
      return;
    }
    case 'badge':
      setTitle(element, cell.title);
      element.replaceChildren(span(cell.badge, cell.label));
      return;
    case 'tags':
      setTitle(element, undefined);
      element.replaceChildren(...cell.tags.map((tag) => span('tag', tag)));
      return;
    case 'lfd': {
      setTitle(element, undefined);
      if (cell.date === null) {
        element.replaceChildren();
        return;
      }
      // The badge (what costs money) always shows whole; the date is short, whole on hover.
      const date = span('lfd-date', cell.date);
      date.title = cell.whole;
      if (cell.left) {
        element.replaceChildren(date, span(`left ${cell.left.startsWith('Overdue') ? 'overdue' : 'soon'}`, cell.left));
      } else if (cell.unsure) element.replaceChildren(date, span('left unsure', 'data old'));
      else element.replaceChildren(date);
      return;
    }
  }
}

function span(className: string, text: string): HTMLSpanElement {
  const node = document.createElement('span');
  setClass(node, className);
  node.textContent = text;
  return node;
}

/** Only when it differs: setting even the same class makes the browser restyle the element. */
function setClass(element: Element, className: string): void {
  if (element.className !== className) element.className = className;
}

/** Kept for the pointer; one shown from an earlier hover goes (it was another row's). */
function setTitle(element: HTMLElement, title: string | undefined): void {
  if (title) titles.set(element, title);
  else titles.delete(element);
  if (element.hasAttribute('title')) element.removeAttribute('title');
}

/** The tooltip of the cell under the pointer, if it has one. */
export function titleOf(cell: Element): string | undefined {
  return titles.get(cell);
}

/** The text in place when the node holds just text: no node made or removed. */
function setText(element: HTMLElement, text: string): void {
  const only = element.firstChild;
  if (only instanceof Text && only === element.lastChild) {
    if (only.data !== text) only.data = text;
  } else element.textContent = text;
}
