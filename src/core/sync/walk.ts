/**
 * One paged walk over a list endpoint. Pages are written in order, each in a few short steps
 * (`writer-steps.ts`, so the event loop is never held for a whole page), the checkpoint naming
 * the next page committing with the page's last step: killed at any point, the walk resumes at
 * the first page not wholly written, and a page written twice changes nothing (upserts by id).
 * When the service numbers its pages (`page[number]` in `links.next` and `links.last`), a few
 * pages are requested at once so the network wait overlaps; otherwise the next page is requested
 * while the current one is written.
 *
 * A walk is bounded (`PageGuard`): a `links.next` that leads back to a page already served, or
 * more pages than the list promised (or, when it promises nothing, than the account could hold:
 * `pagesWithoutPromise`), ends it with a `malformed` error and drops its checkpoint, so the next
 * sync reads that list from the start instead of resuming into the loop.
 */
import { readLink, type JsonApiDocument } from '../api/document';
import { ApiError } from '../api/errors';
import { PAGE_SIZE, type ResourceName } from '../resources';
import type { Db } from '../store/database';
import { formatInstant, trustedInstant } from '../store/instant';
import { countStoredRows } from '../store/queries/sync-plan';
import { clearState, readState, writeState } from '../store/sync-state';
import type { WriteCounts } from '../store/writer';
import { pageInPlace, type PageFrame, type PageHandle } from './page-handle';
import type { PagesAside } from './pages-aside';
import type { Query, SyncClient } from './types';

/** Pages of one walk in flight at once. The limiter still sets the overall pace. */
const PAGES_IN_FLIGHT = 3;
/** Pages allowed beyond twice what a list promised (meta.total, links.last) before it counts as looping. */
const PAGE_MARGIN = 10;
/**
 * A list that promises nothing (no meta.total, no links.last, no pagination) may take as many
 * pages as the account could hold: the records already stored that bound it (`knownRecords`),
 * each counted `UNPROMISED_MARGIN` times, in pages of `PAGE_SIZE`; never fewer than
 * `UNPROMISED_FLOOR` (an account not synced yet) nor more than `UNPROMISED_CEILING`.
 */
export const UNPROMISED_FLOOR = 1_000;
export const UNPROMISED_MARGIN = 10;
export const UNPROMISED_CEILING = 100_000;
/** State key prefix of the bound a list once ran past (`walk` holds it to that bound after). */
const OVERRAN = 'walk-overran:';

/** The most pages a list that promises nothing may take, given the records known of the account. */
export function pagesWithoutPromise(knownRecords: number): number {
  const pages = Math.ceil((Math.max(0, knownRecords) * UNPROMISED_MARGIN) / PAGE_SIZE);
  return Math.min(UNPROMISED_CEILING, Math.max(UNPROMISED_FLOOR, pages));
}

/**
 * What the store already holds of the account: its tracking requests and shipments (every list
 * hangs off them) and the list's own records (a list that outgrew the bound once is allowed more
 * on the next run, as its pages were kept).
 */
function knownRecords(db: Db, resource: ResourceName | undefined): number {
  const counted = new Set<ResourceName>(['trackingRequests', 'shipments']);
  if (resource) counted.add(resource);
  let records = 0;
  for (const name of counted) records += countStoredRows(db, name);
  return records;
}

export interface WalkSpec {
  /** Checkpoint key, e.g. "shipments:active". */
  key: string;
  path: string;
  query: Query;
  /** What the list holds, in a forwarder's words ("shipments"), for messages. */
  noun: string;
  /** The resource the list holds: its stored records count towards `pagesWithoutPromise`. */
  resource?: ResourceName;
  /** Containers whose events a page carries completely, when the page includes them. */
  eventsComplete?: (doc: JsonApiDocument) => string[];
}

interface Checkpoint {
  next: string;
  pages: number;
  maxUpdatedAt: string | null;
  /** The most pages this walk may take (see PageGuard), fixed by its first page. */
  cap?: number | null;
  /** The most pages it may take if its list promises nothing (`pagesWithoutPromise`), fixed as it began. */
  unpromised?: number | null;
}

export interface WalkContext {
  db: Db;
  client: SyncClient;
  /** The profile's base URL: a checkpoint outside it (the URL was changed) is not resumed. */
  baseUrl: string | null;
  signal?: AbortSignal;
  now: () => Date;
  /** Where pages are parsed and written off the core's loop (the app); without it, in place. */
  pages?: PagesAside | null;
  /** Called after each page is written; a promise it returns (the store's upkeep) is waited for. */
  onPage: (page: {
    key: string;
    /** The pages the list says it has (see `promisedPages`), null when it says nothing. */
    pages: number | null;
    counts: WriteCounts;
    resumed: boolean;
  }) => unknown;
}

export interface WalkResult {
  pages: number;
  counts: WriteCounts;
  /** The newest trusted `updated_at` among the primary resources (UTC ISO), for incremental cursors. */
  maxUpdatedAt: string | null;
}

export function hasCheckpoint(db: Db, key: string): boolean {
  return readState<Checkpoint>(db, `walk:${key}`) !== null;
}

function pageNumber(url: string | null): number | null {
  if (!url) return null;
  try {
    const value = new URL(url).searchParams.get('page[number]');
    return value !== null && /^\d+$/.test(value) ? Number(value) : null;
  } catch {
    return null;
  }
}

/** The same page URL with another page number, brackets kept as the service wrote them. */
function withPageNumber(url: string, n: number): string {
  return url.replace(
    /page(\[|%5B)number(\]|%5D)=\d+/i,
    (_m, open: string, close: string) => `page${open}number${close}=${n}`,
  );
}

/** One spelling per page: decoded brackets, sorted query, no fragment. */
function pageKey(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    parsed.searchParams.sort();
    return parsed.href;
  } catch {
    return url;
  }
}

/** Whether a link lies under the base URL (same origin, path below the base's). */
export function liesUnder(link: string, baseUrl: string): boolean {
  try {
    const url = new URL(link);
    const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    return (
      url.origin === base.origin &&
      url.username === '' &&
      url.password === '' &&
      `${url.pathname}/`.startsWith(base.pathname)
    );
  } catch {
    return false;
  }
}

/**
 * Keeps a paged read finite: remembers every page served (by URL, and by page number when the
 * service numbers its pages) and how many pages the list promised, and refuses a next link that
 * leads back or a page beyond about twice the promise, or beyond `unpromised` pages when the list
 * promises nothing (the floor of `pagesWithoutPromise` unless the caller knows the account).
 * Pages requested ahead are not "served" until their turn comes, so a walk's own look-ahead
 * never trips it.
 */
export class PageGuard {
  readonly #noun: string;
  readonly #served = new Set<string>();
  readonly #unpromised: number;
  #pages: number;
  #cap: number | null;
  #lastNumber: number | null = null;
  /** Set when the list ran past `unpromised` pages without promising any. */
  overran = false;

  constructor(
    noun: string,
    resumed: { pages: number; cap: number | null } = { pages: 0, cap: null },
    unpromised = UNPROMISED_FLOOR,
  ) {
    this.#noun = noun;
    this.#pages = resumed.pages;
    this.#cap = resumed.cap;
    this.#unpromised = unpromised;
  }

  get cap(): number | null {
    return this.#cap;
  }

  /** Records the page served from `url` (null: the list's first page, which is page 1). */
  served(url: string | null, frame: PageFrame): void {
    this.#pages++;
    if (url !== null) this.#served.add(pageKey(url));
    this.#lastNumber = url === null ? 1 : pageNumber(url);
    this.#cap ??= promisedCap(frame);
  }

  /** Whether a page is one already served (never requested again). */
  wasServed(url: string): boolean {
    return this.#served.has(pageKey(url));
  }

  /** The error that `next` is, or null when it may be followed. */
  problemWith(next: string): ApiError | null {
    const number = pageNumber(next);
    if (this.wasServed(next) || (number !== null && this.#lastNumber !== null && number <= this.#lastNumber)) {
      return new ApiError(
        'malformed',
        `The Tracking API sent a page of ${this.#noun} that leads back to an earlier page; the sync stopped there and will read the ${this.#noun} from the start next time.`,
      );
    }
    if (this.#cap === null && this.#pages >= this.#unpromised) {
      this.overran = true;
      return new ApiError(
        'malformed',
        `The Tracking API kept sending pages of ${this.#noun} without saying how many there are, past ${this.#unpromised.toLocaleString('en-US')} pages (more than this account could hold); the sync stopped there and will read the ${this.#noun} from the start next time.`,
      );
    }
    if (this.#cap !== null && this.#pages >= this.#cap) {
      return new ApiError(
        'malformed',
        `The Tracking API kept sending pages of ${this.#noun} well past the number it said there are; the sync stopped there and will read the ${this.#noun} from the start next time.`,
      );
    }
    return null;
  }
}

const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;

/**
 * The pages a list says it has, from whichever of its shapes a page carries: the page number of
 * `links.last`, `meta.pagination.last` (the live service's tracking requests), or the rows
 * (`meta.total`, `meta.pagination.records`) over the page size (`meta.size`, else the
 * `page[size]` of the page's own link, else the rows of a page that has a next one). The largest
 * when they disagree; null when the page says none of them (the live service's shipping lines
 * carry only links, its containers `meta.total` alone).
 */
export function promisedPages(doc: PageFrame): number | null {
  const pagination = (typeof doc.meta?.pagination === 'object' ? doc.meta.pagination : null) as Record<
    string,
    unknown
  > | null;
  const total = count(doc.meta?.total) ?? count(pagination?.records);
  const rows = doc.rows;
  const linkSize = (name: string): number | null => {
    const link = readLink(doc.links?.[name]);
    if (!link) return null;
    try {
      const n = Number(new URL(link).searchParams.get('page[size]'));
      return Number.isInteger(n) && n > 0 ? n : null;
    } catch {
      return null;
    }
  };
  const size =
    count(doc.meta?.size) || linkSize('current') || linkSize('self') || (readLink(doc.links?.next) ? rows : null);
  const candidates = [
    pageNumber(readLink(doc.links?.last)),
    count(pagination?.last),
    total !== null && size ? Math.ceil(total / size) : null,
  ].filter((n): n is number => n !== null);
  return candidates.length === 0 ? null : Math.max(1, ...candidates);
}

/** About twice the pages a list says it has, plus a margin; null when it says nothing. */
function promisedCap(doc: PageFrame): number | null {
  const pages = promisedPages(doc);
  return pages === null ? null : 2 * pages + PAGE_MARGIN;
}

function readCheckpoint(db: Db, stateKey: string, baseUrl: string | null): Checkpoint | null {
  const saved = readState<Partial<Checkpoint>>(db, stateKey);
  if (saved === null) return null;
  const usable =
    typeof saved.next === 'string' &&
    typeof saved.pages === 'number' &&
    (baseUrl === null || liesUnder(saved.next, baseUrl));
  if (!usable) {
    // Written under another base URL, or not ours to read: the walk starts over.
    clearState(db, stateKey);
    return null;
  }
  return {
    next: saved.next!,
    pages: saved.pages!,
    maxUpdatedAt: typeof saved.maxUpdatedAt === 'string' ? saved.maxUpdatedAt : null,
    cap: typeof saved.cap === 'number' ? saved.cap : null,
    unpromised:
      Number.isInteger(saved.unpromised) && saved.unpromised! > 0
        ? Math.min(saved.unpromised!, UNPROMISED_CEILING)
        : null,
  };
}

export async function walk(ctx: WalkContext, spec: WalkSpec): Promise<WalkResult> {
  const stateKey = `walk:${spec.key}`;
  let checkpoint = readCheckpoint(ctx.db, stateKey, ctx.baseUrl);
  let pages = checkpoint?.pages ?? 0;
  // Fixed as the walk began and kept with its checkpoint: resuming does not raise it. A list that
  // once ran past its bound is held to that bound from then on: the records an endless list
  // wrote must not buy it more pages the next time.
  const overranAt = readState<unknown>(ctx.db, `${OVERRAN}${spec.key}`);
  const unpromised =
    checkpoint?.unpromised ??
    Math.min(
      pagesWithoutPromise(knownRecords(ctx.db, spec.resource)),
      Number.isInteger(overranAt) && (overranAt as number) > 0 ? (overranAt as number) : UNPROMISED_CEILING,
    );
  let guard = new PageGuard(spec.noun, { pages, cap: checkpoint?.cap ?? null }, unpromised);
  // Compared as instants; one later than a day from now (a service clock in year 9999) never counts.
  let maxUpdatedMs = trustedInstant(checkpoint?.maxUpdatedAt, ctx.now());
  const counts: WriteCounts = {};
  const stop = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal;
  const inFlight = new Map<string, Promise<PageHandle>>();
  /** Pages fetched and not written yet: let go if the walk stops first. */
  const unwritten = new Set<Promise<PageHandle>>();
  const fetchPage = (url: string | null): Promise<PageHandle> => {
    const options = { priority: 'background' as const, signal };
    const aside = ctx.pages;
    if (aside && ctx.client.getPage) {
      const target = url ? { url } : { path: spec.path, query: spec.query };
      return ctx.client.getPage(target, (body) => aside.read(body, spec.eventsComplete), options);
    }
    const doc = url ? ctx.client.getUrl(url, options) : ctx.client.get(spec.path, { ...options, query: spec.query });
    return doc.then((d) => pageInPlace(ctx.db, d, spec.eventsComplete));
  };
  const request = (url: string | null): Promise<PageHandle> => {
    const key = url ?? '';
    let pending = inFlight.get(key);
    if (!pending) {
      pending = fetchPage(url);
      pending.catch(() => {}); // awaited in order below; never an unhandled rejection if the walk stops first
      inFlight.set(key, pending);
      unwritten.add(pending);
    }
    return pending;
  };

  /**
   * Writes one page, in steps (`writer-steps.ts`), its checkpoint (none when `nextLink` is null)
   * committing with its last step.
   */
  const writePage = async (page: PageHandle, nextLink: string | null): Promise<void> => {
    const latest = ctx.now().getTime();
    for (const value of page.updatedAts) {
      const updated = trustedInstant(value, new Date(latest));
      if (updated !== null && (maxUpdatedMs === null || updated > maxUpdatedMs)) maxUpdatedMs = updated;
    }
    const maxUpdatedAt = maxUpdatedMs === null ? null : formatInstant(maxUpdatedMs);
    pages++;
    const pageCounts = await page.write({
      syncedAt: ctx.now().toISOString(),
      // The checkpoint commits with the page's last step: it moves only once the whole page is in.
      checkpoint: {
        key: stateKey,
        value: nextLink
          ? ({ next: nextLink, pages, maxUpdatedAt, cap: guard.cap, unpromised } satisfies Checkpoint)
          : null,
      },
    });
    for (const [type, n] of Object.entries(pageCounts)) counts[type] = (counts[type] ?? 0) + n;
    await ctx.onPage({
      key: spec.key,
      pages: promisedPages(page.frame),
      counts: pageCounts,
      resumed: checkpoint !== null,
    });
  };

  try {
    let url: string | null = checkpoint?.next ?? null;
    let current: Promise<PageHandle> = request(url);
    let page: PageHandle;
    try {
      page = await current;
    } catch (error) {
      // The profile's base URL changed since this checkpoint was written: start the walk over.
      if (!(url && error instanceof ApiError && error.code === 'foreign_origin')) throw error;
      inFlight.delete(url);
      unwritten.delete(current);
      clearState(ctx.db, stateKey);
      checkpoint = null;
      pages = 0;
      guard = new PageGuard(spec.noun, undefined, unpromised);
      maxUpdatedMs = null;
      url = null;
      current = request(null);
      page = await current;
    }
    inFlight.delete(url ?? '');
    for (;;) {
      ctx.signal?.throwIfAborted();
      guard.served(url, page.frame);
      const next = page.frame.rows > 0 ? readLink(page.frame.links?.next) : null;
      const problem = next === null ? null : guard.problemWith(next);
      if (next && !problem) {
        // Ask for the pages after this one before writing it (up to the last numbered page).
        const first = pageNumber(next);
        const last = pageNumber(readLink(page.frame.links?.last));
        if (first !== null && last !== null) {
          for (let n = first; n < first + PAGES_IN_FLIGHT && n <= last; n++) {
            const ahead = withPageNumber(next, n);
            if (!guard.wasServed(ahead)) void request(ahead);
          }
        } else void request(next);
      }
      // A page whose next link loops is still written (its rows are good), without a checkpoint:
      // the next sync reads this list from the start rather than resuming into the loop.
      unwritten.delete(current);
      await writePage(page, problem ? null : next);
      if (guard.overran) writeState(ctx.db, `${OVERRAN}${spec.key}`, unpromised);
      if (problem) throw problem;
      if (!next) break;
      url = next;
      current = request(url);
      page = await current;
      inFlight.delete(url);
    }
  } finally {
    stop.abort();
    // Pages fetched ahead (or the current one, when the walk stopped before writing it).
    for (const pending of unwritten)
      pending.then(
        (p) => p.drop(),
        () => {},
      );
  }
  return { pages, counts, maxUpdatedAt: maxUpdatedMs === null ? null : formatInstant(maxUpdatedMs) };
}
