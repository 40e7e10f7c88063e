/**
 * The reads that can take long over a large account (a list's page and count, Ctrl+K's search),
 * as plain data: what `ReadsAside` sends to its worker thread (`read-worker.ts`), and what it
 * runs on the core's own connection where no worker serves. Both run the same functions, so an
 * answer is the same rows in the same order wherever it was read.
 */
import type { ListName } from '../../shared/list-views';
import type { Sort } from '../../shared/views';
import type { Db } from '../store/database';
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
  | { op: 'search'; text: string; limit: number };

/** The steps of one read: each its own task in place (the loop let go between), all at once in the worker. */
export function readSteps(db: Db, read: ReadOp): { steps: (() => void)[]; answer: () => unknown } {
  switch (read.op) {
    case 'page': {
      let page: unknown;
      return {
        steps: [() => (page = checkedListQueries(read.list).page(db, read.filters, read.options))],
        answer: () => page,
      };
    }
    case 'count': {
      let n = 0;
      return { steps: [() => (n = checkedListQueries(read.list).count(db, read.filters, read.at))], answer: () => n };
    }
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
