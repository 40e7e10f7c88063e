/**
 * One filter chip's values as the forwarder types (`filters:values`): the values of one source
 * that match the typed text, those that start with it first, a page of them at a time.
 */
import { z } from 'zod';
import type { FilterOption, FilterOptions } from './types';

export type FilterSource = keyof FilterOptions;

/** Every source a chip can offer values from, each once (a Record: tsc asks for a source added to FilterOptions). */
const sources: Record<FilterSource, true> = {
  carriers: true,
  portsOfLading: true,
  portsOfDischarge: true,
  destinations: true,
  terminals: true,
  customers: true,
  tags: true,
  holdTypes: true,
  failedReasons: true,
};
export const filterSources = Object.keys(sources) as [FilterSource, ...FilterSource[]];

/** Values in one answer when the asker does not say. */
export const FILTER_VALUES_LIMIT = 200;

/** The longest text searched for: longer than any name a chip offers. */
export const FILTER_VALUES_QUERY_MAX = 1000;

export const filterValuesSchema = z
  .object({
    source: z.enum(filterSources),
    query: z
      .string()
      .max(FILTER_VALUES_QUERY_MAX, `The text to find is too long: at most ${FILTER_VALUES_QUERY_MAX} characters.`)
      .default(''),
    limit: z.number().int().min(1).max(500).default(FILTER_VALUES_LIMIT),
  })
  .strict();

export type FilterValuesRequest = z.output<typeof filterValuesSchema>;

/** The values that match, at most `limit`; `more` when others match too (the text narrows them). */
export interface FilterValues {
  options: FilterOption[];
  more: boolean;
}

/** Case folded as SQLite folds it (NOCASE, lower()): ASCII letters only, alike in every source. */
export const foldCase = (text: string): string => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** Where a value's name or code holds `folded` (text already folded): at its start, further in, or not at all. */
export function matchOf(option: { value: string; label: string }, folded: string): 'start' | 'inside' | null {
  const label = foldCase(option.label);
  const value = foldCase(option.value);
  if (label.startsWith(folded) || value.startsWith(folded)) return 'start';
  if (label.includes(folded) || value.includes(folded)) return 'inside';
  return null;
}
