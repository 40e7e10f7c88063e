/**
 * A list's state (filters, sort, shown columns), kept per list in localStorage so it is there
 * after a restart. What is read back is checked against the list's contract and definition:
 * an unknown or bad filter is dropped, anything else unreadable falls back to the defaults.
 */
import { viewIdOf } from '../../../shared/list-views';
import { parseListFilters, parseListSort, type ListFilters, type ListSort } from '../../../shared/requests';
import type { ListDef, ListId } from './lists-model';

export interface ListState<L extends ListId> {
  filters: ListFilters<L>;
  sort: ListSort<L>;
  columns: string[];
}

// Under the list's view id (`quayside:list:tracking-requests`), as every release has saved it.
const keyOf = (id: ListId) => `quayside:list:${viewIdOf(id)}`;

export function defaultState<L extends ListId>(def: ListDef<L>): ListState<L> {
  return {
    filters: parseListFilters(def.id, {}),
    sort: { ...def.defaultSort },
    columns: def.columns.filter((c) => c.shownByDefault).map((c) => c.key),
  };
}

/** The sort in `raw` if the list's contract takes it and one of its columns sorts by it. */
function columnSort<L extends ListId>(def: ListDef<L>, raw: unknown): ListSort<L> | null {
  const sort = parseListSort(def.id, raw);
  return sort && def.columns.some((c) => c.sort === sort.field) ? sort : null;
}

export function loadListState<L extends ListId>(def: ListDef<L>): ListState<L> {
  const fallback = defaultState(def);
  try {
    const raw = localStorage.getItem(keyOf(def.id));
    if (!raw) return fallback;
    const saved: unknown = JSON.parse(raw);
    if (typeof saved !== 'object' || saved === null) return fallback;
    const known = new Set(def.columns.map((c) => c.key));
    const savedColumns: unknown = 'columns' in saved ? saved.columns : undefined;
    const columns = Array.isArray(savedColumns)
      ? savedColumns.filter((c): c is string => typeof c === 'string' && known.has(c))
      : [];
    return {
      filters: parseListFilters(def.id, 'filters' in saved ? saved.filters : undefined),
      sort: columnSort(def, 'sort' in saved ? saved.sort : undefined) ?? fallback.sort,
      columns: columns.length > 0 ? columns : fallback.columns,
    };
  } catch {
    return fallback;
  }
}

export function saveListState<L extends ListId>(id: L, state: ListState<L>): void {
  try {
    localStorage.setItem(keyOf(id), JSON.stringify(state));
  } catch {
    // A full or disabled storage only costs the remembered state.
  }
}

/**
 * Filters and sort from a link (`#/containers?filters=<json>&sort=field:dir`, as a dashboard
 * tile makes them), checked against the list's contract: an unknown key or a bad value is
 * dropped and the rest kept; a sort the list does not take is ignored. Null when the link
 * carries no filters or they are no JSON object: the list keeps its own.
 */
export function queryFromLink<L extends ListId>(
  id: L,
  params: { filters?: string; sort?: string },
): { filters: ListFilters<L>; sort: ListSort<L> | null } | null {
  if (params.filters === undefined) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(params.filters);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const [field, direction] = params.sort?.split(':') ?? [];
  return { filters: parseListFilters(id, raw), sort: parseListSort(id, { field, direction }) };
}

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** Filters without empty values, as the store expects them (checked against the contract again). */
export function cleanFilters<L extends ListId>(id: L, filters: ListFilters<L>): ListFilters<L> {
  return parseListFilters(id, Object.fromEntries(Object.entries(filters).filter(([, value]) => !isEmpty(value))));
}
