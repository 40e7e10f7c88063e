/**
 * The values every filter chip can offer at once, with how many rows carry each: carriers, ports,
 * terminals, customers, tags, hold types and failure reasons that are in the local data. Chips
 * name their picked values from it, as do print and saved views; a chip's pick list reads its own
 * source as typed (filter-values.ts).
 */
import { filterSources } from '../../../shared/filter-values';
import type { FilterOptions } from '../../../shared/types';
import type { Db } from '../database';
import { filterValues } from './filter-values';

/** Values of each source at most: a chip's pick list finds the others as typed. */
const MAX = 500;

export function filterOptions(db: Db): FilterOptions {
  return Object.fromEntries(
    filterSources.map((source) => [source, filterValues(db, { source, limit: MAX }).options]),
  ) as unknown as FilterOptions;
}
