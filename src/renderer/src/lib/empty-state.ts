/**
 * What an empty list says (EmptyState.svelte): the search and filters that matched nothing, in
 * words, and which of them, taken away alone, gives rows back; or, when the account holds no
 * record of the list's kind at all, what to do for the first ones to come.
 */
import type { FilterOptions, SyncStatus } from '../../../shared/types';
import { dateChipText } from './date-filter-text';
import { customFieldFilterOf, customFieldSummary } from './lists-custom-fields';
import { isActive, searchOf, valuesOf, withoutFilter } from './lists-filters';
import type { FilterDef, ListId } from './lists-model';

/** A chip's value in words, as the chip shows it: "Maersk, CMA CGM +1", "Next 5 days", "Yes". */
export function chipValueText<F extends object>(def: FilterDef<F>, filters: F, options: FilterOptions | null): string {
  if (def.kind === 'customField') {
    const filter = customFieldFilterOf(filters, def.field.apiSlug);
    return filter ? customFieldSummary(def.field, filter) : '';
  }
  if (def.kind === 'range') return dateChipText(def, filters);
  if (def.kind === 'flag') return filters[def.key] === true ? def.yes : def.no;
  const known = def.kind === 'options' ? (options?.[def.source] ?? []) : def.choices;
  const names = valuesOf(filters, def.key).map((v) => known.find((o) => o.value === v)?.label ?? v);
  return names.length <= 2 ? names.join(', ') : `${names.slice(0, 2).join(', ')} +${names.length - 2}`;
}

/** The chips a list's filters set, each as "Label: value". */
export function appliedChips<F extends object>(
  defs: FilterDef<F>[],
  filters: F,
  options: FilterOptions | null,
): string[] {
  return defs.filter((d) => isActive(filters, d)).map((d) => `${d.label}: ${chipValueText(d, filters, options)}`);
}

const and = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });

/**
 * The sentence of a list that matched nothing: `No containers match “Maersk” with Last free day:
 * Next 5 days.`; `within` says where the list looked, when it looked somewhere narrower than
 * everything ("since you last looked").
 */
export function noMatchTitle(noun: string, search: string, applied: string[], within = ''): string {
  const where = within ? ` ${within}` : '';
  if (search && applied.length > 0) return `No ${noun}${where} match “${search}” with ${and.format(applied)}.`;
  if (search) return `No ${noun}${where} match “${search}”.`;
  if (applied.length > 0) return `No ${noun}${where} match ${and.format(applied)}.`;
  return `No ${noun}${where}.`;
}

/** One thing applied that can be taken away alone: the search, a chip, a narrower period. */
export interface Loosening {
  key: string;
  /** Its button: "Clear the search", "Remove Customer". */
  action: string;
  /** How many rows the list holds without it. */
  count: () => Promise<number>;
  /** Takes it away. */
  apply: () => void;
}

/** At most this many are counted: with more, the empty state offers to clear them all. */
export const MAX_LOOSENINGS = 6;

/**
 * Which of `candidates`, taken away alone, gives rows, with how many, asked all at once (each a
 * count of the list, as cheap as the list's own). A count that fails counts as none; with more
 * than `MAX_LOOSENINGS` candidates none is asked.
 */
export async function looseningsWithRows(candidates: Loosening[]): Promise<{ loosening: Loosening; count: number }[]> {
  if (candidates.length > MAX_LOOSENINGS) return [];
  const counts = await Promise.all(candidates.map((c) => c.count().catch(() => 0)));
  return candidates.flatMap((loosening, i) => (counts[i]! > 0 ? [{ loosening, count: counts[i]! }] : []));
}

/** A list's filters without the search text. */
export function withoutSearch<F extends object>(filters: F): F {
  const next = { ...filters };
  delete (next as { search?: unknown }).search;
  return next;
}

/**
 * The loosenings of a list (ListView.svelte): its search, then each chip set. `asked` are the
 * filters the list asked the store for (counted without each), `held` the list's own state (what
 * `change` is given, without the one taken away).
 */
export function listLoosenings<F extends object>(options: {
  defs: FilterDef<F>[];
  asked: F;
  held: F;
  count: (filters: F) => Promise<number>;
  change: (filters: F) => void;
}): Loosening[] {
  const { defs, asked, held, count, change } = options;
  const out: Loosening[] = [];
  if (searchOf(asked)) {
    out.push({
      key: 'search',
      action: 'Clear the search',
      count: () => count(withoutSearch(asked)),
      apply: () => change(withoutSearch(held)),
    });
  }
  for (const def of defs.filter((d) => isActive(asked, d))) {
    out.push({
      key: def.key,
      action: `Remove ${def.label}`,
      count: () => count(withoutFilter(asked, def)),
      apply: () => change(withoutFilter(held, def)),
    });
  }
  return out;
}

/**
 * What a list says while the account holds none of its records: waiting for the first sync, or
 * what brings the first ones in. `track`: the tracking requests are where to start.
 */
export function nothingYet(
  id: ListId,
  noun: string,
  sync: SyncStatus | null,
): { title: string; detail: string; track: boolean } {
  const title = `No ${noun} yet.`;
  if (sync?.lastSyncedAt === null) {
    return {
      title,
      detail:
        sync.state === 'syncing'
          ? 'The first sync is running: they appear here as they arrive.'
          : 'They appear here after the first sync.',
      track: false,
    };
  }
  switch (id) {
    case 'trackingRequests':
      return {
        title,
        detail:
          'Track a bill of lading, booking or container number with New tracking request, or import many at once.',
        track: false,
      };
    case 'emailSubmissions':
      return {
        title,
        detail: 'Documents mailed to your account’s submission address appear here after the next sync.',
        track: false,
      };
    default:
      return {
        title,
        detail: 'Track a bill of lading, booking or container number: what it finds appears here after the next sync.',
        track: true,
      };
  }
}
