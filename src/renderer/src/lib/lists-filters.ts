/**
 * Reading and changing a list's filters through its chips. Generic over the list's filters `F`;
 * the chip definitions (`FilterDef<F>`) only name keys of `F` of the right kind, so what these
 * read is checked as it is read and what they write is what the chip offers.
 */
import type { DaysFilter } from '../../../shared/date-filters';
import { customFieldFilterOf, withCustomFieldFilter } from './lists-custom-fields';
import type { DateChip, FilterDef } from './lists-model';

/** The values a chip holds (none when unset). */
export function valuesOf<F>(filters: F, key: keyof F): string[] {
  const value: unknown = filters[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The instant at one end of a range, if set. */
export function instantOf<F>(filters: F, key: keyof F): string | undefined {
  const value: unknown = filters[key];
  return typeof value === 'string' ? value : undefined;
}

/** The date filter a date chip holds, if set (the list's schema checked it as it came in). */
export function daysOf<F>(filters: F, def: DateChip<F>): DaysFilter | undefined {
  const value: unknown = filters[def.days];
  return typeof value === 'object' && value !== null ? value : undefined;
}

/** The filters with a date chip's days set (or cleared), and the instants it replaces gone. */
export function withDays<F>(filters: F, def: DateChip<F>, value: DaysFilter | undefined): F {
  const next = { ...filters };
  for (const key of [def.days, def.from, def.to]) if (key !== undefined) delete next[key];
  return value === undefined ? next : { ...next, [def.days]: value };
}

/** The search text of any list's filters ('' when none). */
export function searchOf(filters: object): string {
  const value: unknown = 'search' in filters ? filters.search : undefined;
  return typeof value === 'string' ? value : '';
}

export function isActive<F extends object>(filters: F, def: FilterDef<F>): boolean {
  if (def.kind === 'customField') return customFieldFilterOf(filters, def.field.apiSlug) !== undefined;
  if (def.kind === 'range')
    return [def.days, def.from, def.to].some((k) => k !== undefined && filters[k] !== undefined);
  const value: unknown = filters[def.key];
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}

/**
 * The filters with `key` set to `value`, or without it when `value` is undefined or empty. The
 * value comes from the chip of that key (its options, its choices, a day, yes or no).
 */
export function withFilter<F>(filters: F, key: keyof F, value: string | string[] | boolean | undefined): F {
  const next = { ...filters };
  delete next[key];
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return next;
  return { ...next, [key]: value };
}

/** The filters without what a chip sets (both ends for a range). */
export function withoutFilter<F extends object>(filters: F, def: FilterDef<F>): F {
  if (def.kind === 'customField') return withCustomFieldFilter(filters, def.field.apiSlug, undefined);
  if (def.kind === 'range') return withDays(filters, def, undefined);
  return withFilter(filters, def.key, undefined);
}
