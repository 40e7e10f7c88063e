/**
 * Saved views: a list's filters, sort and columns (order and widths) under a name the forwarder
 * gives, pinned in the sidebar under its list. Kept per account (profile) in localStorage, as the
 * lists' remembered state is (list-state.ts), in one versioned document per profile. Opening a
 * view checks it against the list as it is now: a column, filter, filter value or sort the list no
 * longer has is left out, and what was left out is said in words.
 */
import { parseListFilters } from '../../../shared/requests';
import type { FilterOptions } from '../../../shared/types';
import { loadListStateFrom, type ListState } from './list-state';
import type { ListDef, ListId } from './lists-model';

export interface SavedView {
  id: string;
  list: ListId;
  name: string;
  filters: Record<string, unknown>;
  sort: { field: string; direction: 'asc' | 'desc' };
  /** The columns chosen, in order; none: the list's defaults for the table's width when opened. */
  columns: string[];
  widths: Record<string, number>;
  /** The columns' and filters' names when saved, to say which one is gone if the list drops it. */
  labels: Record<string, string>;
  savedAt: string;
}

export const NAME_MAX = 60;
const VERSION = 1;
const keyOf = (profile: string) => `quayside:views:${profile}`;

function isView(value: unknown): value is SavedView {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.list === 'string' &&
    typeof v.name === 'string' &&
    typeof v.filters === 'object' &&
    v.filters !== null &&
    typeof v.sort === 'object' &&
    v.sort !== null &&
    Array.isArray(v.columns)
  );
}

/** The profile's saved views; an unreadable document reads as none (it is not overwritten until a save). */
export function loadSavedViews(profile: string): SavedView[] {
  try {
    const raw = localStorage.getItem(keyOf(profile));
    if (!raw) return [];
    const doc: unknown = JSON.parse(raw);
    if (typeof doc !== 'object' || doc === null || !('views' in doc) || !Array.isArray(doc.views)) return [];
    return doc.views.filter(isView).map((v) => ({
      ...v,
      widths: typeof v.widths === 'object' && v.widths !== null ? v.widths : {},
      labels: typeof v.labels === 'object' && v.labels !== null ? v.labels : {},
    }));
  } catch {
    return [];
  }
}

/** Writes the profile's views; false when storage refused (full or disabled). */
export function storeSavedViews(profile: string, views: readonly SavedView[]): boolean {
  try {
    localStorage.setItem(keyOf(profile), JSON.stringify({ version: VERSION, views }));
    return true;
  } catch {
    return false;
  }
}

/** Why `name` cannot name a view of `list` (empty, too long, taken), or null when it can. */
export function nameProblem(
  views: readonly SavedView[],
  list: ListId,
  name: string,
  except: string | null = null,
): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'Give the view a name.';
  if (trimmed.length > NAME_MAX) return `Keep the name to ${NAME_MAX} characters or fewer.`;
  const taken = views.some((v) => v.list === list && v.id !== except && v.name.toLowerCase() === trimmed.toLowerCase());
  return taken ? `A view named “${trimmed}” already exists for this list: choose another name.` : null;
}

/** What a view keeps of a list's state, with the names of what it holds. */
export function snapshotOf<L extends ListId>(
  def: ListDef<L>,
  state: ListState<L>,
): Pick<SavedView, 'filters' | 'sort' | 'columns' | 'widths' | 'labels'> {
  const labels: Record<string, string> = {};
  for (const c of def.columns) if (state.columns?.includes(c.key)) labels[`column:${c.key}`] = c.label;
  for (const f of def.filters) {
    if (f.kind === 'range') {
      for (const key of [f.days, f.from, f.to]) if (key !== undefined) labels[`filter:${String(key)}`] = f.label;
    } else labels[`filter:${f.key}`] = f.label;
  }
  labels['filter:search'] = 'Search';
  const sortColumn = def.columns.find((c) => c.sort === state.sort.field);
  if (sortColumn) labels[`sort:${state.sort.field}`] = sortColumn.label;
  return {
    filters: JSON.parse(JSON.stringify(state.filters)) as Record<string, unknown>,
    sort: { ...state.sort },
    columns: [...(state.columns ?? [])],
    widths: { ...state.widths },
    labels,
  };
}

export function newView<L extends ListId>(
  def: ListDef<L>,
  state: ListState<L>,
  name: string,
  now = new Date(),
): SavedView {
  return {
    id: `${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    list: def.id,
    name: name.trim(),
    ...snapshotOf(def, state),
    savedAt: now.toISOString(),
  };
}

/** The values a filter chip still offers, or null when any value goes (dates, flags, search). */
function offered<L extends ListId>(def: ListDef<L>, key: string, options: FilterOptions | null): Set<string> | null {
  const chip = def.filters.find((f) => f.key === key && (f.kind === 'choices' || f.kind === 'options'));
  if (!chip) return null;
  if (chip.kind === 'choices') return new Set(chip.choices.map((c) => c.value));
  if (chip.kind === 'options' && options) return new Set(options[chip.source].map((o) => o.value));
  return null;
}

/**
 * The list's state as `view` left it, as far as the list still takes it, and in words what it
 * no longer takes ("the column “Vessel”", "Status: “on_rail”"). `options` (the filter options of
 * the data now) lets it drop values no row has any more; without them only fixed choices are checked.
 */
export function openView<L extends ListId>(
  def: ListDef<L>,
  view: SavedView,
  options: FilterOptions | null = null,
): { state: ListState<L>; dropped: string[] } {
  const dropped: string[] = [];
  const label = (kind: string, key: string) => view.labels[`${kind}:${key}`] ?? key;
  const known = new Set(def.columns.map((c) => c.key));
  const columns = view.columns.filter((key) => {
    if (known.has(key)) return true;
    dropped.push(`the column “${label('column', key)}”`);
    return false;
  });
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(view.filters)) {
    const chip = def.filters.find(
      (f) => f.key === key || (f.kind === 'range' && (f.days === key || f.from === key || f.to === key)),
    );
    const name = chip?.label ?? label('filter', key);
    const takes = (v: unknown) => key in (parseListFilters(def.id, { [key]: v }) as Record<string, unknown>);
    if (Array.isArray(value)) {
      // Each value on its own: one the list no longer knows (or no row has) goes, the others stay.
      const allowed = offered(def, key, options);
      const still = value.filter((v) => takes([v]) && (!allowed || (typeof v === 'string' && allowed.has(v))));
      if (still.length === 0 && !takes(value) && !chip) {
        dropped.push(`the filter “${name}”`);
        continue;
      }
      for (const gone of value.filter((v) => !still.includes(v))) dropped.push(`${name}: “${String(gone)}”`);
      if (still.length > 0) kept[key] = still;
    } else if (takes(value)) kept[key] = (parseListFilters(def.id, { [key]: value }) as Record<string, unknown>)[key];
    else dropped.push(`the filter “${name}”`);
  }
  const state = loadListStateFrom(def, {
    filters: kept,
    sort: view.sort,
    columns,
    widths: view.widths,
  });
  if (state.sort.field !== view.sort.field || state.sort.direction !== view.sort.direction) {
    dropped.push(`the sort by “${label('sort', view.sort.field)}”`);
  }
  return { state: { ...state, linked: false }, dropped };
}

/** "the column “Vessel” and Status: “on_rail”". */
export function joinDropped(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}
