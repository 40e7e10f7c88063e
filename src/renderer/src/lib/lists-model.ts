/**
 * What a list is made of: its columns (with the CSV columns each stands for, so an export holds
 * exactly what is shown), its sort and its filter chips, typed from the list's IPC contract
 * (`listViews` in src/shared/list-views.ts): a filter key, value or sort field the contract does
 * not take fails tsc.
 */
import type { CustomFieldDefinitionInfo, CustomFieldEntityType } from '../../../shared/custom-fields';
import type { ListRow } from '../../../shared/ipc';
import type { ListName } from '../../../shared/list-views';
import type { ListFilters, ListSort, ListSortField } from '../../../shared/requests';
import type { FilterOptions } from '../../../shared/types';
import type { PickupInput } from '../../../shared/pickup';

/** A list, by its registry name (`trackingRequests`); its URL and saved state use `viewIdOf`. */
export type ListId = ListName;

export type Tone = 'neutral' | 'info' | 'good' | 'warn' | 'bad';

export type Cell =
  | { kind: 'text'; text: string; title?: string; mono?: boolean }
  | { kind: 'date'; at: string | null; zone: string | null; estimated?: boolean }
  | { kind: 'status'; status: string; label: string; tone: Tone }
  | { kind: 'tags'; tags: string[] }
  | { kind: 'lfd'; date: string | null; deadline: string | null; done: boolean; pickup?: PickupInput }
  /**
   * Pickup truth (src/shared/pickup.ts), answered at the table's "now" with the stale limit of
   * Settings; `readyOnly`: "Ready" when it is, nothing otherwise (the "Ready for pickup" column).
   */
  | { kind: 'pickup'; input: PickupInput; readyOnly?: boolean };

export interface Column<Row, SortField extends string = string> {
  key: string;
  label: string;
  /** The column that names the row (container number, BL): it stays in view, first, when scrolling sideways. */
  sticky?: boolean;
  /** The sort field the list asks the store for, when the column sorts. */
  sort?: SortField;
  width: number;
  align?: 'end';
  /** The CSV columns (export keys) this column stands for. */
  exportKeys: string[];
  cell: (row: Row) => Cell;
  shownByDefault: boolean;
  /**
   * Shown by default only once the table is this many pixels wide (its inside, without the
   * sidebar): wider screens get more. The defaults without one fit a 1366 px screen's table.
   */
  from?: number;
}

type Defined<T> = Exclude<T, undefined>;
/** Filter keys holding a list of values (a chip offering carriers, statuses…). */
export type ValuesKey<F> = { [K in keyof F]-?: Defined<F[K]> extends readonly string[] ? K : never }[keyof F] & string;
/** Filter keys holding yes or no. */
export type FlagKey<F> = { [K in keyof F]-?: Defined<F[K]> extends boolean ? K : never }[keyof F] & string;
/** Filter keys holding an instant (either end of a date range); the search text is not one. */
export type InstantKey<F> = Exclude<{ [K in keyof F]-?: Defined<F[K]> extends string ? K : never }[keyof F], 'search'>;

/** Filter keys holding a date filter (src/shared/date-filters.ts): `lfdDays`, `etaDays`… */
export type DaysKey<F> = { [K in keyof F]-?: K extends `${string}Days` ? K : never }[keyof F] & string;

/**
 * A date chip (`range`): its filter is `days`, days given or counted from today; `from` and `to`
 * are the instants links and older saved views give (shown, and replaced once edited). `due`: a
 * date that falls due (ETA, last free day), offering the next days and "overdue" in its own words;
 * without it a date in the past (arrived, created), offering the last days.
 */
export interface DateChip<F> {
  key: string;
  label: string;
  kind: 'range';
  days: DaysKey<F>;
  from?: InstantKey<F>;
  to?: InstantKey<F>;
  due?: { overdue: string; means: string };
}

/** A filter chip over filters `F`: `key` names the chip (for a range, not a filter key). */
export type FilterDef<F> =
  | { key: ValuesKey<F>; label: string; kind: 'options'; source: keyof FilterOptions }
  | { key: ValuesKey<F>; label: string; kind: 'choices'; choices: { value: string; label: string }[] }
  | DateChip<F>
  | { key: FlagKey<F>; label: string; kind: 'flag'; yes: string; no: string }
  | CustomFieldChip;

/**
 * A chip over one custom field (its filter is `customFields[api_slug]`), keyed `cf.<api_slug>`:
 * a pick list of its options, text it contains, a range of numbers or days, or yes/no.
 */
export interface CustomFieldChip {
  key: `cf.${string}`;
  label: string;
  kind: 'customField';
  field: CustomFieldDefinitionInfo;
}

/**
 * What a list of records that carry custom fields makes of the fields of their type (read with
 * `customFields:definitions`): one column each, hidden until chosen, and one chip each.
 */
export interface CustomFieldParts<L extends ListId> {
  entityType: CustomFieldEntityType;
  columns: (fields: readonly CustomFieldDefinitionInfo[]) => Column<ListRow<L>, ListSortField<L>>[];
  chips: (fields: readonly CustomFieldDefinitionInfo[]) => FilterDef<ListFilters<L>>[];
}

export interface ListDef<L extends ListId> {
  id: L;
  title: string;
  noun: { one: string; many: string };
  columns: Column<ListRow<L>, ListSortField<L>>[];
  filters: FilterDef<ListFilters<L>>[];
  defaultSort: ListSort<L>;
  searchPlaceholder: string;
  /** Where a row leads, if anywhere. */
  open: (row: ListRow<L>) => { view: 'shipments' | 'containers'; id: string } | null;
  rowLabel: (row: ListRow<L>) => string;
  /** The custom fields of the list's records, as columns and chips (lists whose records carry them). */
  customFields?: CustomFieldParts<L>;
}

export const text = (value: string | null | undefined, extra: { title?: string; mono?: boolean } = {}): Cell => ({
  kind: 'text',
  text: value ?? '',
  ...extra,
});

export const date = (at: string | null, zone: string | null, estimated = false): Cell => ({
  kind: 'date',
  at,
  zone,
  estimated,
});

/** A timestamp column: shown in the zone Settings choose, exported in UTC and in port-local time. */
export function timeColumn<Row, SortField extends string>(
  key: string,
  label: string,
  exportKey: string,
  get: (row: Row) => [string | null, string | null],
  options: { sort?: SortField; estimated?: boolean; shown?: boolean; from?: number } = {},
): Column<Row, SortField> {
  return {
    key,
    label,
    sort: options.sort,
    // "Dec 20, 08:13 AM PST" whole at the cell's 13px (the year only when it is far off).
    width: 166,
    exportKeys: [exportKey, `${exportKey}_local`],
    cell: (row) => {
      const [at, zone] = get(row);
      return date(at, zone, options.estimated ?? false);
    },
    shownByDefault: options.shown ?? false,
    from: options.from,
  };
}
