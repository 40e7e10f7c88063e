/**
 * A list's state (filters, sort, shown columns in their order, column widths), kept per list in
 * localStorage so it is there after a restart. What is read back is checked against the list's
 * contract and definition: an unknown or bad filter is dropped, anything else unreadable falls
 * back to the defaults. State saved by an older release (no `version`, no widths) still loads.
 */
import { viewIdOf } from '../../../shared/list-views';
import { parseListFilters, parseListSort, type ListFilters, type ListSort } from '../../../shared/requests';
import type { CustomFieldDefinitionInfo } from '../../../shared/custom-fields';
import { isCustomFieldSortField, slugOfSortField } from '../../../shared/views';
import { withKnownCustomFields } from './lists-custom-fields';
import type { Column, ListDef, ListId } from './lists-model';

export interface ListState<L extends ListId> {
  filters: ListFilters<L>;
  sort: ListSort<L>;
  /**
   * The shown columns, in the order shown, as the forwarder chose them; null until they choose:
   * then the list's defaults for the table's width (`defaultColumns`).
   */
  columns: string[] | null;
  /** Widths the forwarder gave columns, by column key; the others keep the list's own. */
  widths: Record<string, number>;
  /**
   * The filters came with a link (a dashboard tile, a location in the search), not from the
   * forwarder's own chips: opening the list from the sidebar drops them.
   */
  linked: boolean;
}

/** What a column may be resized to, in pixels. */
export const COLUMN_WIDTH = { min: 60, max: 640 };
// 2: widths and `linked` (state without them, saved before, loads with none).
// 3: columns null until chosen (before, every list saved its defaults as columns once opened).
const VERSION = 3;

/**
 * The columns each list showed by default before the table's width chose them. State saved before
 * version 3 holding exactly these was no choice of the forwarder's (every list saved its columns
 * once opened), so it takes the defaults for the width now.
 */
const formerDefaults: Record<ListId, string> = {
  containers: 'number status lfd pickup holds bl carrier customer',
  shipments: 'bl carrier customer pod eta ata slip containers tags',
  trackingRequests: 'number type carrier status failedReason customer created',
  emailSubmissions: 'subject status documents shipments from sent',
};

// Under the list's view id (`quayside:list:tracking-requests`), as every release has saved it.
const keyOf = (id: ListId) => `quayside:list:${viewIdOf(id)}`;

export function defaultState<L extends ListId>(def: ListDef<L>): ListState<L> {
  return {
    filters: parseListFilters(def.id, {}),
    sort: { ...def.defaultSort },
    columns: null,
    widths: {},
    linked: false,
  };
}

/**
 * The columns a list shows until the forwarder chooses: those shown by default, less those that
 * wait for a wider table than `width` (the narrowest set while the table's width is unknown).
 */
export function defaultColumns(
  def: { columns: readonly Pick<Column<never>, 'key' | 'shownByDefault' | 'from'>[] },
  width: number | null,
): string[] {
  return def.columns
    .filter((c) => c.shownByDefault && (c.from === undefined || (width !== null && width >= c.from)))
    .map((c) => c.key);
}

/**
 * The column keys a list may keep: its own, and for a list of records with custom fields any
 * `cf.<api_slug>` (the account's fields arrive after the state loads; one it no longer has is
 * kept, and not shown).
 */
function knownColumns<L extends ListId>(def: ListDef<L>): { has: (key: string) => boolean } {
  const own = new Set(def.columns.map((c) => c.key));
  return { has: (key) => own.has(key) || (def.customFields !== undefined && isCustomFieldSortField(key)) };
}

function widthsOf(known: { has: (key: string) => boolean }, raw: unknown): Record<string, number> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (known.has(key) && typeof value === 'number' && Number.isFinite(value)) {
      out[key] = Math.round(Math.min(COLUMN_WIDTH.max, Math.max(COLUMN_WIDTH.min, value)));
    }
  }
  return out;
}

/** The sort in `raw` if the list's contract takes it and one of its columns (or custom fields) sorts by it. */
function columnSort<L extends ListId>(def: ListDef<L>, raw: unknown): ListSort<L> | null {
  const sort = parseListSort(def.id, raw);
  if (!sort) return null;
  const custom = def.customFields !== undefined && isCustomFieldSortField(sort.field);
  return custom || def.columns.some((c) => c.sort === sort.field) ? sort : null;
}

export function loadListState<L extends ListId>(def: ListDef<L>): ListState<L> {
  try {
    const raw = localStorage.getItem(keyOf(def.id));
    if (!raw) return defaultState(def);
    const saved: unknown = JSON.parse(raw);
    const state = loadListStateFrom(def, saved);
    const version = typeof saved === 'object' && saved !== null && 'version' in saved ? saved.version : undefined;
    const older = typeof version !== 'number' || version < VERSION;
    return older && state.columns?.join(' ') === formerDefaults[def.id] ? { ...state, columns: null } : state;
  } catch {
    return defaultState(def);
  }
}

/** A list's state from what was saved (here or in a saved view), checked as `loadListState` checks it. */
export function loadListStateFrom<L extends ListId>(def: ListDef<L>, saved: unknown): ListState<L> {
  const fallback = defaultState(def);
  try {
    if (typeof saved !== 'object' || saved === null) return fallback;
    const known = knownColumns(def);
    const savedColumns: unknown = 'columns' in saved ? saved.columns : undefined;
    const columns = Array.isArray(savedColumns)
      ? savedColumns.filter((c): c is string => typeof c === 'string' && known.has(c))
      : [];
    return {
      filters: parseListFilters(def.id, 'filters' in saved ? saved.filters : undefined),
      // A sort no column offers (the containers' former default, newest created) gives way to the default.
      sort: columnSort(def, 'sort' in saved ? saved.sort : undefined) ?? fallback.sort,
      columns: columns.length > 0 ? [...new Set(columns)] : null,
      widths: widthsOf(known, 'widths' in saved ? saved.widths : undefined),
      linked: 'linked' in saved && saved.linked === true,
    };
  } catch {
    return fallback;
  }
}

export function saveListState<L extends ListId>(id: L, state: ListState<L>): void {
  try {
    localStorage.setItem(keyOf(id), JSON.stringify({ version: VERSION, ...state }));
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

/**
 * What a list asks the store for: its filters without empty values and its sort, and once the
 * account's custom fields are known (`fields`), without a filter or sort on one it no longer has
 * (the default sort instead). The state itself keeps them.
 */
export function askedQuery<L extends ListId>(
  def: ListDef<L>,
  state: Pick<ListState<L>, 'filters' | 'sort'>,
  fields: readonly CustomFieldDefinitionInfo[] | null,
): { filters: ListFilters<L>; sort: ListSort<L> } {
  if (fields === null) return { filters: cleanFilters(def.id, state.filters), sort: state.sort };
  const known = new Set(fields.map((f) => f.apiSlug));
  const gone = isCustomFieldSortField(state.sort.field) && !known.has(slugOfSortField(state.sort.field));
  return {
    filters: cleanFilters(def.id, withKnownCustomFields(state.filters, known)),
    sort: gone ? def.defaultSort : state.sort,
  };
}
