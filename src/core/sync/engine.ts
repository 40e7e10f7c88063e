/**
 * The sync engine: which walks a run makes, in what order, and what it spends on transport
 * events. A full run walks everything once, then fetches container by container (most urgent
 * first) the events the container pages left out; an incremental run asks tracking requests for what
 * changed since the cursor (one request when nothing did), re-walks still-tracking shipments
 * with their containers included, stopped ones once a day, and fetches events only for
 * containers that changed, by page when many did and one by one, within the budget the lists
 * leave, when few did. Every run ends by fetching, one by one, the records its pages referenced
 * without including them (`fill-stubs.ts`).
 */
import type { JsonApiDocument } from '../api/document';
import { ApiError, RateLimitedError } from '../api/errors';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import { PAGE_SIZE as PAGE, walks, type Walk } from '../resources';
import { maintainStoreInSteps } from '../store/maintenance';
import type { PagesAside } from './pages-aside';
import { containersMissingEvents, containersWithChangedEvents, countWalkedRows } from '../store/queries/sync-plan';
import { describeStoreError } from '../store/store-errors';
import { clearState, readState, URGENT_STORED_KEY, writeState } from '../store/sync-state';
import { countOncePerRun } from '../store/writer';
import { childListsDue, childSteps, readChildLists } from './child-lists';
import { eventsComplete, fetchContainerEvents } from './container-events';
import { DocumentFileLane, type DocumentFileClient, type DocumentFilesOptions } from './document-files';
import { FEED_WALK, planFeed, refreshShipments, settleFeed, type FeedContext } from './feed';
import { fillSteps, fillStubs, pendingStubs } from './fill-stubs';
import { routesToAsk, syncRoutes } from './routes';
import type { RequestMeter } from './meter';
import { finishLogEntry, startLogEntry } from './sync-log';
import { afterWalk, planWalks, walkSpec, type PlannedWalk } from './plan';
import { runPool } from './run-pool';
import type { SyncClient, SyncMode, SyncProgress, SyncSummary } from './types';
import { hasCheckpoint, walk, type WalkContext } from './walk';

const WALKS_AT_ONCE = 3;
/**
 * Pages written between two WAL checkpoints (about 1,500 WAL pages of 16 KB). Checkpointing
 * here, between pages while the next ones are on the network, keeps the WAL below the
 * automatic checkpoint (`wal_autocheckpoint`), which would otherwise run inside a page's commit
 * and add its copy and flush to that page's write. Search segments are merged after every page.
 */
const PAGES_PER_CHECKPOINT = 8;
/** The walk whose pages carry container events (and that incremental runs use for many changes). */
const eventWalk = walks.find((w) => w.carriesEvents);
const walksByKey = new Map(walks.map((w) => [w.key, w]));

export interface SyncEngineOptions {
  db: Db;
  client: SyncClient;
  /** The profile's base URL: a walk's checkpoint outside it is not resumed. */
  baseUrl?: string;
  meter: RequestMeter;
  rateLimit: { limit: number; windowMs: number };
  /** Requests the limiter can grant right now, to bound one-by-one event fetches. */
  availableRequests?: () => number;
  now?: () => Date;
  onProgress?: (progress: SyncProgress) => void;
  /** Where document files are kept and within what size, for the run's file step (`document-files.ts`). */
  documentFiles?: DocumentFilesOptions & { client: DocumentFileClient };
  /** The walks' pages parsed and written off the core's loop (the app, `pages-aside.ts`); else in place. */
  pages?: PagesAside | null;
  /** WAL checkpoints on the engine's own connection, not a worker thread's (`OpenSyncOptions.checkpointHere`). */
  checkpointHere?: boolean;
}

export interface RunOptions {
  mode?: SyncMode;
  signal?: AbortSignal;
}

/** Progress steps: each walk's (from its descriptor), and the container-by-container event fetches. */
const stepNames = new Map<string, string>([
  ...walks.map((w) => [w.key, w.step] as const),
  ['events', 'Container events'],
  ['routes', 'Route maps'],
  ['feed', 'Changes notified'],
  ['done', 'Done'],
  ...childSteps,
  ...fillSteps,
  ['files', 'Document files'],
]);

export class SyncEngine {
  readonly #o: SyncEngineOptions;
  #running: Promise<SyncSummary> | null = null;

  constructor(options: SyncEngineOptions) {
    this.#o = options;
  }

  /** Containers a page carries all events of (see `container-events.ts`). */
  readonly #eventsComplete = (doc: JsonApiDocument): string[] => eventsComplete(this.#o.db, doc);

  get running(): boolean {
    return this.#running !== null;
  }

  /** Runs a sync, or joins the one already running. */
  run(options: RunOptions = {}): Promise<SyncSummary> {
    this.#running ??= this.#run(options).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #run({ mode = 'auto', signal }: RunOptions): Promise<SyncSummary> {
    const { db, meter } = this.#o;
    const now = this.#o.now ?? (() => new Date());
    const started = now();
    const fullDone = readState<string>(db, 'full:completed_at');
    const resolved: 'full' | 'incremental' = mode === 'auto' ? (fullDone ? 'incremental' : 'full') : mode;
    const mark = meter.mark();
    let runId = 0;
    try {
      runId = startLogEntry(db, resolved, started.toISOString());
    } catch (caught) {
      // A database that cannot be written (full disk, read-only) fails the run before any request.
      return {
        runId,
        mode: resolved,
        status: 'failed',
        requests: 0,
        rateLimited: 0,
        durationMs: 0,
        counts: {},
        error: describe(caught),
      };
    }
    // Each record counts once in this run's summary, whichever walks or includes brought it.
    const endCounting = countOncePerRun(db, started.toISOString());
    const counts: Record<string, number> = {};
    let pagesDone = 0;
    // Planned inside the run's try below, so a store that fails to read ends the run as failed.
    let plan: PlannedWalk[];
    let pagesTotal = 0;
    let eventsEstimate: number;
    const seenTotals = new Set<string>();

    const progress = (step: string) => {
      const used = meter.since(mark);
      this.#o.onProgress?.({
        runId,
        mode: resolved,
        step: stepNames.get(step) ?? step,
        pagesDone,
        pagesTotal: Math.max(pagesTotal, pagesDone),
        requests: used.requests,
        rateLimited: used.rateLimited,
        etaSeconds: this.#eta(Math.max(0, pagesTotal - pagesDone)),
      });
    };

    // The documents' files, for offline use within the size setting: fetched as their pages come
    // in, while the links they came with are fresh (`document-files.ts`), the rest at the end.
    let filesStep = false;
    let lane: DocumentFileLane | null = null;

    const ctx: WalkContext = {
      db,
      client: this.#o.client,
      baseUrl: this.#o.baseUrl ?? null,
      signal,
      now,
      pages: this.#o.pages,
      onPage: async ({ key, pages, counts: pageCounts }) => {
        pagesDone++;
        const checkpoint = pagesDone % PAGES_PER_CHECKPOINT === 0;
        if (pages !== null && !seenTotals.has(key)) {
          seenTotals.add(key);
          const actual = pages;
          pagesTotal += actual - this.#estimatePages(key);
          writeState(db, `pages:${key}`, actual);
        }
        for (const [type, n] of Object.entries(pageCounts)) counts[type] = (counts[type] ?? 0) + n;
        progress(key);
        await this.#upkeep(checkpoint);
        if (lane && (pageCounts.document ?? 0) > 0) {
          lane.take();
          await lane.drained();
        }
      },
    };

    const notices: string[] = [];
    let status: SyncSummary['status'] = 'ok';
    let error: SyncSummary['error'] = null;
    try {
      plan = planWalks(db, resolved, now(), this.#eventsComplete);
      const files = this.#o.documentFiles;
      lane = files
        ? new DocumentFileLane({
            db,
            client: files.client,
            options: files,
            signal,
            onQueued: (n) => (pagesTotal += n),
            onFile: () => {
              pagesDone++;
              if (filesStep) progress('files');
            },
          })
        : null;
      pagesTotal = plan.reduce((sum, spec) => sum + this.#estimatePages(spec.key), 0);
      // The change feed (`feed.ts`): named shipments by id instead of walking every still-tracking one.
      const feedCtx: FeedContext = {
        db,
        client: this.#o.client,
        signal,
        now,
        onRequest: (written) => {
          pagesDone++;
          pagesTotal++;
          for (const [type, n] of Object.entries(written)) counts[type] = (counts[type] ?? 0) + n;
          progress('feed');
        },
      };
      const feed =
        resolved === 'incremental' && plan.some((spec) => spec.key === FEED_WALK)
          ? await planFeed(feedCtx, {
              walkResumed: hasCheckpoint(db, FEED_WALK),
              walkPages: this.#estimatePages(FEED_WALK),
            })
          : null;
      if (feed?.shipments) {
        plan = plan.filter((spec) => spec.key !== FEED_WALK);
        pagesTotal -= this.#estimatePages(FEED_WALK);
      }
      // A service that ignored the events include last time will likely do so again: one request
      // per container follows the lists (corrected once the lists are in).
      eventsEstimate = resolved === 'full' ? this.#estimateEventFetches() : 0;
      pagesTotal += eventsEstimate;
      // Walks are independent (stubs keep references whole in any order), so a few run at once:
      // while one waits for the network another writes, and the limiter sets the pace.
      // Urgent walks first and alone: every request goes to what a forwarder needs today. The
      // limiter's window is not lost meanwhile; the slots they leave unused are there after.
      const runWalk = async (spec: PlannedWalk) => {
        progress(spec.key);
        let result;
        try {
          result = await walk(ctx, spec);
        } catch (caught) {
          const notice = this.#unavailable(spec.walk, caught, signal, now());
          if (notice === undefined) throw caught;
          if (notice !== null) notices.push(notice);
          return;
        }
        if (spec.walk.unavailableNotice) clearState(db, `unavailable:${spec.key}`);
        afterWalk(db, resolved, spec, result.maxUpdatedAt, now());
      };
      const urgent = plan.filter((spec) => spec.walk.urgent);
      if (feed?.shipments) await refreshShipments(feedCtx, feed.shipments);
      await runPool(urgent, WALKS_AT_ONCE, runWalk);
      if (feed) settleFeed(db, feed, now());
      if (urgent.length > 0 || feed?.shipments) {
        // The dashboard's tiles about boxes and arrivals count from here on, first sync or not.
        writeState(db, URGENT_STORED_KEY, now().toISOString());
      }
      await runPool(
        plan.filter((spec) => !spec.walk.urgent),
        WALKS_AT_ONCE,
        runWalk,
      );
      // Records fetched one request at a time (child lists, stubs): one step of progress each.
      const fetchedById = (step: string, fetched: Record<string, number>) => {
        pagesDone++;
        for (const [type, n] of Object.entries(fetched)) counts[type] = (counts[type] ?? 0) + n;
        progress(step);
      };
      // Lists kept under each record of another resource (custom field options, raw events), as
      // fresh as their descriptors ask, within their budgets.
      const children = childListsDue(db, resolved, now());
      const childLists = children.reduce((n, c) => n + c.parents.length, 0);
      pagesTotal += childLists;
      if (childLists > 0) {
        await readChildLists(
          {
            db,
            client: this.#o.client,
            signal,
            now,
            onFetched: fetchedById,
          },
          children,
        );
      }
      if (resolved === 'incremental') await this.#syncChangedEvents(ctx, counts, () => progress('events'));
      if (resolved === 'full') {
        // Events the container pages did not carry (the include ignored or cut short), fetched
        // container by container, the most urgent first, at the limiter's pace: after one full
        // run every container whose record lists events has them, for an offline timeline.
        const missing = this.#eventsMissing(now());
        pagesTotal += missing.length - eventsEstimate;
        writeState(db, 'pages:events:missing', missing.length);
        if (missing.length > 0) progress('events');
        await runPool(missing, WALKS_AT_ONCE, async (id) => {
          signal?.throwIfAborted();
          const written = await this.fetchContainerEvents(id, 'background', signal);
          if (written > 0) counts.transport_event = (counts.transport_event ?? 0) + written;
          pagesDone++;
          progress('events');
        });
      }
      // Route maps of boxes on their way (routing, a paid feature; `routes.ts`).
      const routes = this.#o.client.getJson ? routesToAsk(db, now(), resolved) : [];
      pagesTotal += routes.length;
      await syncRoutes(
        {
          db,
          client: this.#o.client,
          signal,
          now,
          onFetched: (stored, what = 'route') => {
            pagesDone++;
            const kind = what === 'route' ? 'container_route' : 'vessel_future_positions';
            if (stored) counts[kind] = (counts[kind] ?? 0) + 1;
            progress('routes');
          },
        },
        routes,
      );
      // Records pages referenced without including them (stubs), fetched by id (`api.get`).
      const stubs = pendingStubs(db);
      pagesTotal += stubs;
      if (stubs > 0) {
        await fillStubs({
          db,
          client: this.#o.client,
          signal,
          now,
          onFetched: fetchedById,
        });
      }
      if (lane) {
        filesStep = true;
        progress('files');
        const kept = await lane.finish();
        if (kept.files > 0) counts.document_file = (counts.document_file ?? 0) + kept.files;
        if (kept.bytes > 0) counts.document_file_bytes = (counts.document_file_bytes ?? 0) + kept.bytes;
      }
      if (resolved === 'full') writeState(db, 'full:completed_at', now().toISOString());
      writeState(db, 'sync:completed_at', now().toISOString());
      await this.#upkeep(true);
      // Done is done: an estimate a step did not correct (a list that gave no total) leaves no
      // bar short of its end.
      pagesTotal = pagesDone;
      progress('done');
    } catch (caught) {
      // Files under way stop with the run (a cancelled run's signal has stopped them already).
      await lane?.close();
      if (signal?.aborted) status = 'cancelled';
      else status = 'failed';
      error = describe(caught, signal);
    }
    endCounting();
    const used = meter.since(mark);
    const summary: SyncSummary = {
      runId,
      mode: resolved,
      status,
      requests: used.requests,
      rateLimited: used.rateLimited,
      durationMs: now().getTime() - started.getTime(),
      counts,
      error,
      ...(notices.length > 0 ? { notices } : {}),
    };
    try {
      finishLogEntry(db, summary, now().toISOString());
    } catch {
      // The summary still reaches the caller; the log row stays "running" and is marked interrupted next time.
    }
    return summary;
  }

  /**
   * A walk that may fail for good (`unavailableNotice`) and answered a server error: marked
   * unavailable (views read its records one by one) and its sentence returned the first time
   * (null after: said once). Undefined: the failure ends the run as any other.
   */
  #unavailable(walk: Walk, caught: unknown, signal: AbortSignal | undefined, now: Date): string | null | undefined {
    if (!walk.unavailableNotice || signal?.aborted) return undefined;
    if (!(caught instanceof ApiError) || caught.status === null || caught.status < 500) return undefined;
    const key = `unavailable:${walk.key}`;
    const said = readState<string>(this.#o.db, key) !== null;
    writeState(this.#o.db, key, now.toISOString());
    return said ? null : walk.unavailableNotice;
  }

  /** The store's upkeep between pages: where the pages are written. */
  #upkeep(checkpoint: boolean): Promise<void> {
    const { pages, db, checkpointHere } = this.#o;
    return pages ? pages.upkeep({ checkpoint }) : maintainStoreInSteps(db, { checkpoint, checkpointHere });
  }

  /**
   * Events for containers whose attributes changed since their events were last fetched:
   * by container pages when that is cheaper, else one container at a time, newest changes of
   * still-tracking shipments first, never spending more than the limiter can grant right now.
   */

  async #syncChangedEvents(ctx: WalkContext, counts: Record<string, number>, progress: () => void): Promise<void> {
    const { db } = this.#o;
    const changed = containersWithChangedEvents(db);
    if (changed.length === 0) return;
    const containerPages = eventWalk ? this.#estimatePages(eventWalk.key) : Infinity;
    const honoured = readState<boolean>(db, 'events:include_honoured') !== false;
    if (eventWalk && honoured && changed.length >= containerPages) {
      const result = await walk(ctx, walkSpec(db, eventWalk, 'incremental', ctx.now(), this.#eventsComplete));
      for (const [type, n] of Object.entries(result.counts)) counts[type] = (counts[type] ?? 0) + n;
      return;
    }
    const budget = Math.min(changed.length, Math.max(0, this.#o.availableRequests?.() ?? changed.length));
    for (const id of changed.slice(0, budget)) {
      ctx.signal?.throwIfAborted();
      const written = await this.fetchContainerEvents(id, 'background', ctx.signal);
      counts.transport_event = (counts.transport_event ?? 0) + written;
      progress();
    }
  }

  /** All events of one container, every page, now (a user opened it) or as background work. */
  fetchContainerEvents(containerId: string, priority: 'user' | 'background', signal?: AbortSignal): Promise<number> {
    const now = this.#o.now ?? (() => new Date());
    return fetchContainerEvents(this.#o.db, this.#o.client, () => now().toISOString(), containerId, priority, signal);
  }

  /**
   * Containers a full run still owes events: synced, events not fetched since the box last
   * changed, and a record that lists events (or does not say). Most urgent first: boxes still
   * in play with a hold, a last free day within three days (or past) or an arrival within
   * three days; then those at the port; then the rest in play; then picked up, returned or no
   * longer tracked. Within each, the soonest deadline or arrival first.
   */
  #eventsMissing(now: Date): string[] {
    const soon = new Date(now.getTime() + 3 * 86_400_000).toISOString();
    return containersMissingEvents(this.#o.db, soon);
  }

  /** Containers the last full run fetched events for one by one, or, never run, none. */
  #estimateEventFetches(): number {
    return readState<number>(this.#o.db, 'pages:events:missing') ?? 0;
  }

  /** Pages a walk is expected to take: as the last run's list said (`promisedPages`), else from what is stored. */
  #estimatePages(key: string): number {
    const { db } = this.#o;
    const known = readState<number>(db, `pages:${key}`);
    if (known !== null) return known;
    const w = walksByKey.get(key);
    if (w === undefined || w.estimate === 'one page') return 1;
    const n = countWalkedRows(db, w.resource);
    return Math.max(1, Math.ceil(n / PAGE));
  }

  #eta(remainingRequests: number): number | null {
    if (remainingRequests === 0) return 0;
    const { limit, windowMs } = this.#o.rateLimit;
    const available = this.#o.availableRequests?.() ?? limit;
    const waiting = Math.max(0, remainingRequests - available);
    // Beyond what is free now, requests go at the limit's pace; add a little for latency.
    return Math.round((waiting / limit) * (windowMs / 1000) + remainingRequests * 0.15);
  }
}

function describe(error: unknown, signal?: AbortSignal): NonNullable<SyncSummary['error']> {
  if (signal?.aborted)
    return { code: 'cancelled', message: 'The sync was cancelled; it will resume where it stopped.' };
  if (error instanceof RateLimitedError && error.retryAt) {
    return { code: error.code, message: error.message, retryAt: error.retryAt.toISOString() };
  }
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  if (error instanceof QuaysideError) return { code: error.code, message: error.message };
  const store = describeStoreError(error);
  if (store) return store;
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
