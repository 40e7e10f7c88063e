/**
 * The reads that can take long over a large account (a list's page and count, Ctrl+K's search,
 * the dashboard, the filters' pick lists) as plain data: what `ReadsAside` sends to its worker
 * thread (`read-worker.ts`), and what it runs on the core's own connection where none serves. Both run the same functions, so an
 * answer is the same rows in the same order wherever it was read.
 */
import type { InsightsRequest } from '../../shared/insights';
import type { ListName } from '../../shared/list-views';
import type { Sort } from '../../shared/views';
import { computeInsights, type InsightsOptions } from '../insights/insights';
import type { Db } from '../store/database';
import { dashboardSummary } from '../store/queries/dashboard';
import { filterOptions } from '../store/queries/filter-options';
import { filterValues, type FilterValuesQuery } from '../store/queries/filter-values';
import { checkedListQueries, type JudgedAt } from '../store/queries/list-view';
import { searchParts, type SearchAnswer } from './search';

export type ReadOp =
  | {
      op: 'page';
      list: ListName;
      filters: unknown;
      options: JudgedAt & { sort?: Sort; limit: number; after?: string };
    }
  | { op: 'count'; list: ListName; filters: unknown; at: JudgedAt }
  | { op: 'search'; text: string; limit: number }
  /** The dashboard's tiles and the filters' pick lists: a few grouped counts over every row. */
  | { op: 'dashboard'; now: number; zone?: string }
  | { op: 'filterOptions' }
  /** One chip's values as typed, from the index of its source. */
  | ({ op: 'filterValues' } & FilterValuesQuery)
  /** Insights: carrier, lane and terminal figures, grouped in the store. */
  | { op: 'insights'; request: InsightsRequest; options: InsightsOptions };

/** A read of one step. */
function one(read: () => unknown): { steps: (() => void)[]; answer: () => unknown } {
  let value: unknown;
  return { steps: [() => (value = read())], answer: () => value };
}

/** The steps of one read: each its own task in place (the loop let go between), all at once in the worker. */
export function readSteps(db: Db, read: ReadOp): { steps: (() => void)[]; answer: () => unknown } {
  switch (read.op) {
    case 'page':
      return one(() => checkedListQueries(read.list).page(db, read.filters, read.options));
    case 'count':
      return one(() => checkedListQueries(read.list).count(db, read.filters, read.at));
    case 'dashboard':
      return one(() => dashboardSummary(db, read.now, read.zone));
    case 'filterOptions':
      return one(() => filterOptions(db));
    case 'filterValues':
      return one(() => filterValues(db, read));
    case 'insights':
      return one(() => computeInsights(db, read.request, read.options));
    case 'search': {
      const parts = searchParts(db, read.text, read.limit);
      return { steps: parts.steps, answer: (): SearchAnswer => parts.answer() };
    }
  }
}

/** One read start to end on `db` (the worker's way: its loop serves nobody else). */
export function runRead(db: Db, read: ReadOp): unknown {
  const { steps, answer } = readSteps(db, read);
  for (const step of steps) step();
  return answer();
}
