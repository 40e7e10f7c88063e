/**
 * What a list's page (ListView.svelte, ChangesView.svelte) reads: its rows a page at a time, the
 * filter chips' choices, and again when the data on this computer changes.
 */
import { untrack } from 'svelte';
import type { FilterSource, FilterValues } from '../../../shared/filter-values';
import type { FilterOption, FilterOptions } from '../../../shared/types';
import type { Page } from '../../../shared/views';
import { api } from './api';
import { app } from './app-state.svelte';
import { messageOf } from './errors';
import { newestOnly } from './newest';

/** Rows in the first read; later reads take `MORE` at a time as the table scrolls. */
const FIRST_PAGE = 100;
const MORE = 500;
/**
 * Pages kept read at most (~10k rows, a few MB): a list scrolled through 200k containers held every
 * row it had read (160 MB of the page's heap). Those farthest from where the table asked last are
 * put away and read again, from the cursor that began them, when the table comes back to them.
 */
export const KEPT_PAGES = 20;

/** A page read: where its rows sit in `rows`, the cursor it was read after, whether they are kept. */
interface PageRead {
  start: number;
  length: number;
  after: string | undefined;
  kept: boolean;
}

/**
 * A list page's rows (ListView.svelte, ChangesView.svelte), read a page at a time through
 * `page(limit, after)`: the first page with whatever the page shows beside it (its count), then
 * more as the table scrolls toward a row not read yet. Only the newest read lands: a slow answer
 * to an older question never replaces the rows of a newer one. `rows` holds every row read so far
 * in place, a row put away (`KEPT_PAGES`) as `undefined` until the table needs it again.
 */
export class PagedList<R> {
  rows = $state.raw<(R | undefined)[]>([]);
  /** A read from the start is under way. */
  loading = $state(true);
  /** Why the last read failed, in a sentence; null when it did not. */
  error = $state<string | null>(null);
  #pages: PageRead[] = [];
  #next: string | null = null;
  #fetching = false;
  #generation = 0;
  /** The row the table asked for last: reads go toward it, pages far from it are put away. */
  #wanted = 0;
  readonly #page: (limit: number, after?: string) => Promise<Page<R>>;

  constructor(page: (limit: number, after?: string) => Promise<Page<R>>) {
    this.#page = page;
  }

  /**
   * Reads the first page and, at the same time, `beside` (the count). From the start, or keeping
   * the place (the data changed under the same question): as many rows as are already read.
   * `shown` takes `beside`'s answer with the rows, `failed` is told when either read failed; neither
   * is called when a newer read has begun.
   */
  async load<T>(
    keepPlace: boolean,
    beside: () => Promise<T>,
    shown: (extra: T) => void,
    failed: () => void = () => {},
  ): Promise<void> {
    const mine = ++this.#generation;
    if (!keepPlace) this.loading = true;
    try {
      const limit = keepPlace ? Math.min(MORE, Math.max(FIRST_PAGE, this.rows.length)) : FIRST_PAGE;
      const [page, extra] = await Promise.all([this.#page(limit), beside()]);
      if (mine !== this.#generation) return;
      this.rows = page.rows;
      this.#pages = [{ start: 0, length: page.rows.length, after: undefined, kept: true }];
      this.#next = page.next;
      this.error = null;
      shown(extra);
    } catch (failure) {
      if (mine !== this.#generation) return;
      this.error = messageOf(failure);
      this.rows = [];
      this.#pages = [];
      failed();
    } finally {
      if (mine === this.#generation) this.loading = false;
    }
  }

  /**
   * Reads until row `index` is there (the table scrolled near it), unless a newer read begins: on
   * from the last row read, or again the page it was put away with. Asked again while reading, the
   * reads go on toward the newest `index`.
   */
  async need(index: number): Promise<void> {
    this.#wanted = index;
    if (this.#fetching) return;
    this.#fetching = true;
    const mine = this.#generation;
    try {
      while (mine === this.#generation) {
        const wanted = this.#wanted;
        const away = this.#pages.find((p) => !p.kept && p.start <= wanted && wanted < p.start + p.length);
        if (away) {
          const page = await this.#page(away.length, away.after);
          if (mine !== this.#generation) break;
          // The same rows as before unless the data changed, and then a read from the start follows.
          const rows = this.rows.slice();
          page.rows.slice(0, away.length).forEach((row, i) => (rows[away.start + i] = row));
          away.kept = true;
          this.#keep(rows);
        } else if (this.rows.length <= wanted && this.#next !== null) {
          const after = this.#next;
          const page = await this.#page(MORE, after);
          if (mine !== this.#generation) break;
          this.#pages.push({ start: this.rows.length, length: page.rows.length, after, kept: true });
          this.#next = page.next;
          this.#keep(this.rows.concat(page.rows));
        } else break;
      }
    } catch (failure) {
      if (mine === this.#generation) this.error = messageOf(failure);
    } finally {
      this.#fetching = false;
    }
  }

  /** Shows `rows`, less the pages farthest from the row wanted when more than `KEPT_PAGES` are kept. */
  #keep(rows: (R | undefined)[]): void {
    const distance = (p: PageRead) => Math.max(0, p.start - this.#wanted, this.#wanted - (p.start + p.length - 1));
    const kept = this.#pages.filter((p) => p.kept).sort((a, b) => distance(b) - distance(a));
    for (const page of kept.slice(0, Math.max(0, kept.length - KEPT_PAGES))) {
      page.kept = false;
      rows.fill(undefined, page.start, page.start + page.length);
    }
    this.rows = rows;
  }
}

/**
 * Calls `then` (untracked) each time the data on this computer changes from now on (a sync
 * landed, changes marked as looked at). An effect of the component that calls it while it starts.
 */
export function onDataChange(then: () => void): void {
  let seen = app.dataVersion;
  $effect(() => {
    const version = app.dataVersion;
    if (version === seen) return;
    seen = version;
    untrack(then);
  });
}

/**
 * The filter chips' choices (`filters:options`: customers, carriers, ports…), read when a chip first
 * needs them and once per data version: a failure is not asked again until `forget`.
 */
export class FilterChoices {
  options = $state<FilterOptions | null>(null);
  #asked = false;

  async load(): Promise<void> {
    if (this.options || this.#asked) return;
    this.#asked = true;
    try {
      this.options = await api.invoke('filters:options');
    } catch {
      this.options = null;
    }
  }

  /** The data changed: the next need reads them again. */
  forget(): void {
    this.options = null;
    this.#asked = false;
  }
}

/**
 * The open chip's pick list as its find box is typed (`filters:values`): each text asked as it is
 * typed, only the newest answer shown, and the list before it kept until then, so typing never
 * blanks the list. `options` is null until the first answer for the chip's source.
 */
export class ChipValues {
  options = $state.raw<FilterOption[] | null>(null);
  /** More values match than are listed: the text narrows them. */
  more = $state(false);
  /** The text the shown values answer (trimmed). */
  answered = $state('');
  /** Why the newest read failed, in a sentence; null when it did not. */
  error = $state<string | null>(null);
  #source = $state<FilterSource | null>(null);
  #query = '';
  readonly #newest = newestOnly<FilterValues & { query: string }>(
    (answer) => {
      this.options = answer.options;
      this.more = answer.more;
      this.answered = answer.query;
      this.error = null;
    },
    (message) => (this.error = message),
  );

  /** The source of the values asked for last. */
  get source(): FilterSource | null {
    return this.#source;
  }

  /** Asks for `source`'s values that match `query`; another source's list is put away at once. */
  ask(source: FilterSource, query: string): void {
    if (source !== this.#source) {
      this.#source = source;
      this.options = null;
      this.more = false;
      this.error = null;
    }
    this.#query = query;
    const text = query.trim();
    void this.#newest(async () => ({ ...(await api.invoke('filters:values', { source, query: text })), query: text }));
  }

  /** The data changed: the open chip's values are read again (shown until the new ones come). */
  refresh(): void {
    if (this.#source) this.ask(this.#source, this.#query);
  }
}
