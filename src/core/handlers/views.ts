/** Everything the views read: from the local database, so it all works offline. */
import type { Handlers } from '../../shared/ipc';
import { listNames, type ListName, type ListTypes } from '../../shared/list-views';
import { containerDetail, containerEvents, shipmentDetail } from '../details/details';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import { lists } from '../resources/lists';
import { checkedListQueries, type JudgedAt } from '../store/queries/list-view';
import type { Sort } from '../../shared/views';
import type { DashboardSummary, FilterOptions } from '../../shared/types';
import type { FilterValues } from '../../shared/filter-values';
import { toActionError } from './api-errors';
import type { Session } from '../session';
import type { CoreContext } from './context';

type ListChannel = `${ListName}:${'list' | 'count' | 'get'}`;
type ViewHandlers = Pick<
  Handlers,
  ListChannel | 'containers:events' | 'dashboard:summary' | 'filters:options' | 'filters:values'
>;

/** The lists whose `<name>:get` answers more than their row (a detail screen's data). */
type DetailedList = { [N in ListName]: ListTypes[N]['detail'] extends ListTypes[N]['row'] ? never : N }[ListName];

/** What `<name>:get` answers for a list with a detail screen (tsc asks for each such list). */
const details: { [N in DetailedList]: (db: Db, id: string) => ListTypes[N]['detail'] } = {
  shipments: shipmentDetail,
  containers: containerDetail,
};

/** `<name>:get`: the list's detail, or else its row (refused as not found when it is not synced). */
function getOf(name: ListName): (db: Db, id: string) => unknown {
  const detail = (details as Partial<Record<ListName, (db: Db, id: string) => unknown>>)[name];
  if (detail) return detail;
  return (db, id) => {
    const row = checkedListQueries(name).get(db, id);
    if (!row) throw new QuaysideError('not_found', `This ${lists[name].noun} is not in the local data (yet).`);
    return row;
  };
}

/** The search text of a list's filters, when one is typed. */
const searchText = (filters: unknown): string | undefined => {
  const text = (filters as { search?: unknown }).search;
  return typeof text === 'string' && text.trim() !== '' ? text : undefined;
};

/**
 * `<name>:list`, `:count` and `:get` of every list, from its queries. Pages and counts go through
 * the session's reads (a worker thread over a large account: core/reads); a first page or a count
 * with search text is in its lane, so a newer keystroke's takes the place of one still waiting.
 */
function listHandlers(
  session: () => Promise<Session>,
  db: () => Promise<Db>,
  judgedAt: () => JudgedAt,
): Pick<Handlers, ListChannel> {
  const handlers: Record<string, unknown> = {};
  for (const list of listNames) {
    // The arguments were parsed by the channel's schema: this list's filters and sort.
    type ListArg = { filters: unknown; sort?: Sort; page: { limit: number; after?: string } };
    handlers[`${list}:list`] = async ({ filters, sort, page }: ListArg) =>
      (await session()).reads.run(
        { op: 'page', list, filters, options: { sort, limit: page.limit, after: page.after, ...judgedAt() } },
        searchText(filters) !== undefined && page.after === undefined ? `${list}:list` : undefined,
      );
    handlers[`${list}:count`] = async ({ filters }: { filters: unknown }) =>
      (await session()).reads.run(
        { op: 'count', list, filters, at: judgedAt() },
        searchText(filters) !== undefined ? `${list}:count` : undefined,
      );
    const get = getOf(list);
    handlers[`${list}:get`] = async ({ id }: { id: string }) => get(await db(), id);
  }
  return handlers as Pick<Handlers, ListChannel>;
}

export function viewHandlers(ctx: CoreContext): ViewHandlers {
  const db = async (): Promise<Db> => (await ctx.session()).db;
  // "Overdue" and "ready for pickup" are judged now (CoreOptions.now when tests move the clock),
  // ready only on terminal data fresher than the stale limit in Settings, as the Pickup column.
  const judgedAt = (): JudgedAt => ({
    ...(ctx.options.now ? { now: new Date(ctx.options.now()).toISOString() } : {}),
    staleHours: ctx.settings.get().terminalStaleHours,
  });

  return {
    ...listHandlers(() => ctx.session(), db, judgedAt),
    'containers:events': async ({ id, refresh }) => {
      const session = await ctx.session();
      const detail = containerDetail(session.db, id);
      let fromCache = true;
      let error: string | null = null;
      // An explicit refresh is tried whatever the last request said; an automatic one only online.
      if (session.engine && (refresh || (session.online && detail.eventsSyncedAt === null))) {
        try {
          // The user is looking at it: ahead of background sync in the limiter's queue.
          await session.engine.fetchContainerEvents(id, 'user');
          fromCache = false;
          ctx.events.emit('data:changed');
        } catch (failure) {
          ctx.log('fetching container events failed; showing the cached ones', failure);
          error = toActionError(failure).message;
        }
      }
      return {
        events: containerEvents(session.db, id),
        fetchedAt: containerDetail(session.db, id).eventsSyncedAt,
        fromCache,
        error,
      };
    },
    // A few grouped counts over every row (4–6 s each over 100k shipments): in the session's reads.
    'dashboard:summary': async (arg) =>
      (await ctx.session()).reads.run<DashboardSummary>({ op: 'dashboard', now: Date.now(), zone: arg?.zone }),
    'filters:options': async () => (await ctx.session()).reads.run<FilterOptions>({ op: 'filterOptions' }),
    // In a lane: a newer keystroke's read takes the place of one still waiting.
    'filters:values': async (arg) =>
      (await ctx.session()).reads.run<FilterValues>({ op: 'filterValues', ...arg }, 'filters:values'),
  };
}
