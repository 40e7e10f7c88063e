/**
 * The account's custom fields in a list: one column per field of the list's record type (hidden
 * until chosen; sorting by it asks the store for `cf.<api_slug>`), one chip per field (a pick
 * list, text it contains, a range of numbers or days, yes/no), and reading and writing a chip's
 * filter (`customFields[api_slug]` in the list's filters).
 */
import type { CustomFieldCells, CustomFieldDefinitionInfo, CustomFieldEntityType } from '../../../shared/custom-fields';
import type { CustomFieldFilter, CustomFieldFilters, CustomFieldSortField } from '../../../shared/views';
import { formatCalendarDate, formatCellCalendarDate, formatCount } from './format';
import { date, text, type Cell, type Column, type CustomFieldChip } from './lists-model';

/** A field's column and chip key, and its sort field: `cf.<api_slug>`. */
export const customFieldKey = (slug: string): CustomFieldSortField => `cf.${slug}`;

/** What a cell shows for a field's value: dates as the list's dates, yes/no in words, numbers formatted. */
export function customFieldCell(field: CustomFieldDefinitionInfo, cells: CustomFieldCells): Cell {
  // Its own member only: a field named `constructor` or `toString` is not the object's inherited one.
  const held = Object.hasOwn(cells, field.apiSlug) ? cells[field.apiSlug] : undefined;
  if (!held || held.value === null) return text('');
  const { value } = held;
  switch (field.dataType) {
    case 'number':
      return typeof value === 'number' ? text(formatCount(value), { title: String(value) }) : text(held.text);
    case 'boolean':
      return typeof value === 'boolean' ? text(value ? 'Yes' : 'No') : text(held.text);
    case 'date':
      return typeof value === 'string'
        ? text(formatCellCalendarDate(value), { title: `${field.name}: ${formatCalendarDate(value)}` })
        : text(held.text);
    case 'datetime':
      return typeof value === 'string' ? date(value, null) : text(held.text);
    default:
      // Pick lists show the option's label (the service's display value); text as it is.
      return text(held.text ?? (Array.isArray(value) ? value.join(', ') : String(value)), {
        title: held.text ?? undefined,
      });
  }
}

const typeWidths: Partial<Record<string, number>> = { number: 100, boolean: 96, date: 116, datetime: 166 };
/** A field's column: wide enough for its type's values and for its name with the sort arrow (at most 260 px). */
const widthOf = (field: CustomFieldDefinitionInfo) =>
  Math.min(260, Math.max(typeWidths[field.dataType] ?? 150, Math.round(field.name.length * 7.5) + 36));

/**
 * A list's custom field columns and chips, for rows `Row` that carry their values: each column
 * named by its field, hidden by default, sorting by `cf.<api_slug>`, exporting that CSV column.
 */
export function customFieldParts<Row extends { customFields: CustomFieldCells }>(entityType: CustomFieldEntityType) {
  return {
    entityType,
    columns: (fields: readonly CustomFieldDefinitionInfo[]): Column<Row, CustomFieldSortField>[] =>
      fields.map((field) => ({
        key: customFieldKey(field.apiSlug),
        label: field.name,
        sort: customFieldKey(field.apiSlug),
        width: widthOf(field),
        align: field.dataType === 'number' ? ('end' as const) : undefined,
        exportKeys: [customFieldKey(field.apiSlug)],
        cell: (row: Row) => customFieldCell(field, row.customFields),
        shownByDefault: false,
      })),
    chips: (fields: readonly CustomFieldDefinitionInfo[]): CustomFieldChip[] =>
      fields.map((field) => ({ key: customFieldKey(field.apiSlug), label: field.name, kind: 'customField', field })),
  };
}

/** The custom field filters in a list's filters (none when it has none). */
export function customFieldFiltersOf(filters: object): CustomFieldFilters {
  const held: unknown = 'customFields' in filters ? filters.customFields : undefined;
  return typeof held === 'object' && held !== null ? (held as CustomFieldFilters) : {};
}

/** The filter a chip holds on its field, if any. */
export function customFieldFilterOf(filters: object, slug: string): CustomFieldFilter | undefined {
  const held = customFieldFiltersOf(filters);
  return Object.hasOwn(held, slug) ? held[slug] : undefined;
}

/** The filters with one field's filter set, or without it (`undefined`); no field filtered leaves none. */
export function withCustomFieldFilter<F extends object>(
  filters: F,
  slug: string,
  filter: CustomFieldFilter | undefined,
): F {
  const next: CustomFieldFilters = { ...customFieldFiltersOf(filters) };
  if (filter === undefined) delete next[slug];
  else next[slug] = filter;
  return { ...filters, customFields: Object.keys(next).length > 0 ? next : undefined };
}

/** Known fields only: a filter on a field the account no longer has is left out of what is asked. */
export function withKnownCustomFields<F extends object>(filters: F, known: ReadonlySet<string>): F {
  const held = customFieldFiltersOf(filters);
  const kept = Object.entries(held).filter(([slug]) => known.has(slug));
  if (kept.length === Object.keys(held).length) return filters;
  return { ...filters, customFields: kept.length > 0 ? Object.fromEntries(kept) : undefined };
}

/** What a chip says of its filter: "FOB, CIF +1", "contains “4500”", "10 – 20", a range of days, Yes. */
export function customFieldSummary(field: CustomFieldDefinitionInfo, filter: CustomFieldFilter): string {
  switch (filter.kind) {
    case 'options': {
      const names = filter.values.map((v) => field.options.find((o) => o.value === v)?.label ?? v);
      return names.length <= 2 ? names.join(', ') : `${names.slice(0, 2).join(', ')} +${names.length - 2}`;
    }
    case 'text':
      return `contains “${filter.contains}”`;
    case 'number':
      if (filter.min !== undefined && filter.max !== undefined) {
        return filter.min === filter.max
          ? formatCount(filter.min)
          : `${formatCount(filter.min)} – ${formatCount(filter.max)}`;
      }
      return filter.min !== undefined ? `${formatCount(filter.min)} or more` : `up to ${formatCount(filter.max ?? 0)}`;
    case 'date': {
      const from = filter.from ? formatCalendarDate(filter.from) : null;
      const to = filter.to ? formatCalendarDate(filter.to) : null;
      if (from && to) return from === to ? from : `${from} – ${to}`;
      return from ? `from ${from}` : `until ${to ?? ''}`;
    }
    case 'flag':
      return filter.is ? 'Yes' : 'No';
  }
}
