/**
 * A list's state (filters, sort, shown columns), kept per list in localStorage so it is there
 * after a restart. Anything unreadable falls back to the list's defaults.
 */
import type { ListDef, ListId } from './lists';

export type Filters = Record<string, unknown>;

export interface ListState {
  filters: Filters;
  sort: { field: string; direction: 'asc' | 'desc' };
  columns: string[];
}

const keyOf = (id: ListId) => `quayside:list:${id}`;

export function defaultState<Row>(def: ListDef<Row>): ListState {
  return {
    filters: {},
    sort: { ...def.defaultSort },
    columns: def.columns.filter((c) => c.shownByDefault).map((c) => c.key),
  };
}

export function loadListState<Row>(def: ListDef<Row>): ListState {
  const fallback = defaultState(def);
  try {
    const raw = localStorage.getItem(keyOf(def.id));
    if (!raw) return fallback;
    const saved = JSON.parse(raw) as Partial<ListState>;
    const known = new Set(def.columns.map((c) => c.key));
    const columns = Array.isArray(saved.columns) ? saved.columns.filter((c) => known.has(c)) : [];
    const sortable = new Set(def.columns.map((c) => c.sort).filter(Boolean));
    const sort =
      saved.sort &&
      sortable.has(saved.sort.field) &&
      (saved.sort.direction === 'asc' || saved.sort.direction === 'desc')
        ? saved.sort
        : fallback.sort;
    const filters = saved.filters && typeof saved.filters === 'object' ? saved.filters : {};
    return { filters, sort, columns: columns.length > 0 ? columns : fallback.columns };
  } catch {
    return fallback;
  }
}

export function saveListState(id: ListId, state: ListState): void {
  try {
    localStorage.setItem(keyOf(id), JSON.stringify(state));
  } catch {
    // A full or disabled storage only costs the remembered state.
  }
}

/** Filters without empty values, as the store expects them. */
export function cleanFilters(filters: Filters): Filters {
  const out: Filters = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}
