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
import { listResources, readLink, type JsonApiDocument } from '../api/document';
import { ApiError } from '../api/errors';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import type { StoredResource } from '../store/resource';
import { PAGE_SIZE as PAGE, resources as registry, walks, type Walk } from '../resources';
import { maintainStore } from '../store/maintenance';
import { containersMissingEvents, containersWithChangedEvents, countWalkedRows } from '../store/queries/sync-plan';
import { trustedInstant } from '../store/instant';
import { describeStoreError } from '../store/store-errors';
import { clearState, readState, URGENT_STORED_KEY, writeState } from '../store/sync-state';
import { writeResources } from '../store/writer';
import { childListsDue, childSteps, readChildLists } from './child-lists';
import { filesToFetch, syncDocumentFiles, type DocumentFileClient, type DocumentFilesOptions } from './document-files';
import { fillSteps, fillStubs, pendingStubs } from './fill-stubs';
import { routesToAsk, syncRoutes } from './routes';
import type { RequestMeter } from './meter';
import { finishLogEntry, startLogEntry } from './sync-log';
import type { Query, SyncClient, SyncMode, SyncProgress, SyncSummary } from './types';
import { hasCheckpoint, PageGuard, walk, type WalkContext, type WalkSpec } from './walk';

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
  ['done', 'Done'],
  ...childSteps,
  ...fillSteps,
  ['files', 'Document files'],
]);

/** A walk of the plan, with the descriptor's walk it came from. */
interface PlannedWalk extends WalkSpec {
  walk: Walk;
}

/** Which containers of a container page have all their events in it. */
function eventsCarried(doc: JsonApiDocument): string[] {
  const included = new Set(doc.included.filter((r) => r.type === 'transport_event').map((r) => r.id));
  return listResources(doc)
    .filter((c) => {
      const refs = c.relationships.transport_events?.data;
      return Array.isArray(refs) && refs.every((ref) => included.has(ref.id));
    })
    .map((c) => c.id);
}

export class SyncEngine {
  readonly #o: SyncEngineOptions;
  #running: Promise<SyncSummary> | null = null;

  constructor(options: SyncEngineOptions) {
    this.#o = options;
  }

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

    const ctx: WalkContext = {
      db,
      client: this.#o.client,
      baseUrl: this.#o.baseUrl ?? null,
      signal,
      now,
      onPage: ({ key, pages, counts: pageCounts }) => {
        pagesDone++;
        maintainStore(db, { checkpoint: pagesDone % PAGES_PER_CHECKPOINT === 0 });
        if (pages !== null && !seenTotals.has(key)) {
          seenTotals.add(key);
          const actual = pages;
          pagesTotal += actual - this.#estimatePages(key);
          writeState(db, `pages:${key}`, actual);
        }
        for (const [type, n] of Object.entries(pageCounts)) counts[type] = (counts[type] ?? 0) + n;
        progress(key);
      },
    };

    const notices: string[] = [];
    let status: SyncSummary['status'] = 'ok';
    let error: SyncSummary['error'] = null;
    try {
      plan = this.#plan(resolved, now());
      pagesTotal = plan.reduce((sum, spec) => sum + this.#estimatePages(spec.key), 0);
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
        this.#afterWalk(resolved, spec, result.maxUpdatedAt, now());
      };
      const urgent = plan.filter((spec) => spec.walk.urgent);
      await runPool(urgent, WALKS_AT_ONCE, runWalk);
      if (urgent.length > 0) {
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
      // Lists kept under each record of a resource walked in this run (custom field options).
      const children = childListsDue(db, new Set(plan.map((spec) => spec.walk.resource)));
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
          onFetched: (stored) => {
            pagesDone++;
            if (stored) counts.container_route = (counts.container_route ?? 0) + 1;
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
      // The documents' files, for offline use, within the size setting (one request each for its link).
      const files = this.#o.documentFiles;
      if (files) {
        const chosen = filesToFetch(db, files);
        pagesTotal += chosen.chosen.length;
        if (chosen.chosen.length > 0) progress('files');
        const kept = await syncDocumentFiles(
          {
            db,
            client: files.client,
            options: files,
            signal,
            onFile: () => {
              pagesDone++;
              progress('files');
            },
          },
          chosen,
        );
        if (kept.files > 0) counts.document_file = (counts.document_file ?? 0) + kept.files;
        if (kept.bytes > 0) counts.document_file_bytes = (counts.document_file_bytes ?? 0) + kept.bytes;
      }
      if (resolved === 'full') writeState(db, 'full:completed_at', now().toISOString());
      writeState(db, 'sync:completed_at', now().toISOString());
      maintainStore(db, { checkpoint: true });
      // Done is done: an estimate a step did not correct (a list that gave no total) leaves no
      // bar short of its end.
      pagesTotal = pagesDone;
      progress('done');
    } catch (caught) {
      if (signal?.aborted) status = 'cancelled';
      else status = 'failed';
      error = describe(caught, signal);
    }
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
   * The walks of a run, in the registry's walk order: each as its descriptor's `when` says
   * (every run; full runs; or once its period has passed), and an interrupted walk always.
   */
  #plan(mode: 'full' | 'incremental', now: Date): PlannedWalk[] {
    const { db } = this.#o;
    const due = (key: string, every: number) => {
      // A time that is no date, or far ahead of this clock, would keep a walk from ever being due.
      const last = trustedInstant(readState<unknown>(db, key), now);
      return mode === 'full' || last === null || now.getTime() - last >= every;
    };
    const planned = (w: Walk): boolean => {
      switch (w.when.kind) {
        case 'always':
          return true;
        case 'full':
          return mode === 'full' || hasCheckpoint(db, w.key);
        case 'every':
          return due(w.when.doneKey, w.when.every) || hasCheckpoint(db, w.when.resumeWith);
      }
    };
    return walks.filter(planned).map((w) => this.#spec(w, mode, now));
  }

  /** A walk's request: its list, query and includes, and from its cursor on incremental runs. */
  #spec(walk: Walk, mode: 'full' | 'incremental', now: Date): PlannedWalk {
    const query: Query = { ...walk.query };
    if (walk.cursor) {
      // A cursor that is no date or lies in the future is no cursor: every record is read, and
      // the walk's newest update becomes the cursor again.
      const cursor =
        mode === 'incremental' ? trustedInstant(readState<unknown>(this.#o.db, walk.cursor.key), now) : null;
      query[walk.cursor.filter] = cursor === null ? undefined : new Date(cursor - walk.cursor.overlapMs).toISOString();
    }
    if (walk.includes.length > 0) query.include = walk.includes.join(',');
    return {
      key: walk.key,
      path: walk.path,
      noun: walk.noun,
      query,
      walk,
      eventsComplete: walk.carriesEvents ? (doc) => this.#eventsComplete(doc) : undefined,
    };
  }

  /** Containers a page carries all events of; remembers whether the service honours the include. */
  #eventsComplete(doc: JsonApiDocument): string[] {
    const carried = eventsCarried(doc);
    // A service that ignores the include sends event ids without the events: remember, and
    // fetch events container by container from then on. (A container with no events is
    // "carried" by any page, so only those that list events tell.)
    const withEvents = listResources(doc).filter(
      (c) => (c.relationships.transport_events?.data as unknown[] | undefined)?.length,
    );
    const carriedSet = new Set(carried);
    if (withEvents.length > 0) {
      writeState(
        this.#o.db,
        'events:include_honoured',
        withEvents.some((c) => carriedSet.has(c.id)),
      );
    }
    return carried;
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

  /** What a walk leaves for the next run: its cursor moved, or the time its period restarts. */
  #afterWalk(mode: 'full' | 'incremental', { walk }: PlannedWalk, maxUpdatedAt: string | null, now: Date): void {
    const { db } = this.#o;
    if (walk.cursor) {
      const { key } = walk.cursor;
      // Instants, not text. A full run read every record, so its newest update is the cursor
      // (a bad one stored before is reset); an incremental run only moves a trusted one forward.
      const previous = mode === 'full' ? null : trustedInstant(readState<unknown>(db, key), now);
      const latest = trustedInstant(maxUpdatedAt, now);
      if (latest !== null && (previous === null || latest > previous)) {
        writeState(db, key, maxUpdatedAt);
      } else if (previous === null && latest === null) clearState(db, key);
    }
    if (walk.when.kind === 'every' && walk.when.markedBy === walk.key) {
      writeState(db, walk.when.doneKey, now.toISOString());
    }
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
      const result = await walk(ctx, this.#spec(eventWalk, 'incremental', ctx.now()));
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
  async fetchContainerEvents(
    containerId: string,
    priority: 'user' | 'background',
    signal?: AbortSignal,
  ): Promise<number> {
    const { db, client } = this.#o;
    const now = this.#o.now ?? (() => new Date());
    const resources: StoredResource[] = [];
    const guard = new PageGuard('container events');
    try {
      let url: string | null = null;
      const api = registry.transportEvents.api!;
      let doc = await client.get(api.path!.replace('{id}', encodeURIComponent(containerId)), {
        query: { 'page[size]': PAGE, include: (api.includes ?? []).join(',') },
        priority,
        signal,
      });
      for (;;) {
        guard.served(url, doc);
        const events = listResources(doc);
        resources.push(...(events as StoredResource[]), ...(doc.included as StoredResource[]));
        const next = events.length > 0 ? readLink(doc.links?.next) : null;
        if (!next) break;
        const problem = guard.problemWith(next);
        if (problem) throw problem;
        url = next;
        doc = await client.getUrl(next, { priority, signal });
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return 0; // the container is gone at the service
      throw error;
    }
    // Marked complete only with every page in hand.
    const written = writeResources(db, resources, { syncedAt: now().toISOString(), eventsCompleteFor: [containerId] });
    return written.transport_event ?? 0;
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

/** Runs `task` over `items`, at most `size` at a time; the first failure stops new starts and is thrown. */
async function runPool<T>(items: readonly T[], size: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}

function describe(error: unknown, signal?: AbortSignal): { code: string; message: string } {
  if (signal?.aborted)
    return { code: 'cancelled', message: 'The sync was cancelled; it will resume where it stopped.' };
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  if (error instanceof QuaysideError) return { code: error.code, message: error.message };
  const store = describeStoreError(error);
  if (store) return store;
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
