/**
 * What a list's page (ListView.svelte, ChangesView.svelte) reads: its rows a page at a time, the
 * filter chips' choices, and again when the data on this computer changes.
 */
import { untrack } from 'svelte';
import type { FilterOptions } from '../../../shared/types';
import type { Page } from '../../../shared/views';
import { api } from './api';
import { app } from './app-state.svelte';
import { messageOf } from './errors';

/** Rows in the first read; later reads take `MORE` at a time as the table scrolls. */
const FIRST_PAGE = 100;
const MORE = 500;

/**
 * A list page's rows (ListView.svelte, ChangesView.svelte), read a page at a time through
 * `page(limit, after)`: the first page with whatever the page shows beside it (its count), then
 * more as the table scrolls toward a row not read yet. Only the newest read lands: a slow answer
 * to an older question never replaces the rows of a newer one.
 */
export class PagedList<R> {
  rows = $state.raw<R[]>([]);
  /** A read from the start is under way. */
  loading = $state(true);
  /** Why the last read failed, in a sentence; null when it did not. */
  error = $state<string | null>(null);
  #next: string | null = null;
  #fetching = false;
  #generation = 0;
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
      this.#next = page.next;
      this.error = null;
      shown(extra);
    } catch (failure) {
      if (mine !== this.#generation) return;
      this.error = messageOf(failure);
      this.rows = [];
      failed();
    } finally {
      if (mine === this.#generation) this.loading = false;
    }
  }

  /** Reads on until row `index` is read (the table scrolled there), unless a newer read begins. */
  async need(index: number): Promise<void> {
    if (this.#fetching || this.#next === null) return;
    this.#fetching = true;
    const mine = this.#generation;
    try {
      while (this.rows.length <= index && this.#next !== null && mine === this.#generation) {
        const page = await this.#page(MORE, this.#next);
        if (mine !== this.#generation) break;
        this.rows = this.rows.concat(page.rows);
        this.#next = page.next;
      }
    } catch (failure) {
      if (mine === this.#generation) this.error = messageOf(failure);
    } finally {
      this.#fetching = false;
    }
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
