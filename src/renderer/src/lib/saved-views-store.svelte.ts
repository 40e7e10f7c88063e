/**
 * The active account's saved views, shared by the sidebar (which pins them) and the lists (which
 * save, open, rename, update and delete them). Read again when the account changes.
 */
import { app } from './app-state.svelte';
import type { ListDef, ListId } from './lists-model';
import type { ListState } from './list-state';
import type { FilterOptions } from '../../../shared/types';
import {
  joinDropped,
  loadSavedViews,
  nameProblem,
  newView,
  openView,
  snapshotOf,
  storeSavedViews,
  type SavedView,
} from './saved-views';

const NOT_STORED = 'The view could not be stored on this computer (its storage is full or turned off).';

class SavedViews {
  /** The profile the views were read for: demo data has its own. */
  profile = $state('');
  all = $state.raw<SavedView[]>([]);
  /** The view each list has open, by list: the sidebar marks it. */
  active = $state<Partial<Record<ListId, string>>>({});

  /** Reads the views again when the account has changed since they were read. */
  sync(): void {
    const profile = app.profiles?.activeId ?? 'demo';
    if (profile === this.profile) return;
    this.profile = profile;
    this.all = loadSavedViews(profile);
    this.active = {};
  }

  of(list: ListId): SavedView[] {
    return this.all.filter((v) => v.list === list);
  }

  find(id: string): SavedView | undefined {
    return this.all.find((v) => v.id === id);
  }

  #write(next: SavedView[]): void {
    if (!storeSavedViews(this.profile, next)) throw new Error(NOT_STORED);
    this.all = next;
  }

  /** Saves the list's state as a new view and makes it the list's open one; throws a sentence when it cannot. */
  create<L extends ListId>(def: ListDef<L>, state: ListState<L>, name: string): SavedView {
    const problem = nameProblem(this.all, def.id, name);
    if (problem) throw new Error(problem);
    const view = newView(def, state, name);
    this.#write([...this.all, view]);
    this.active = { ...this.active, [def.id]: view.id };
    return view;
  }

  rename(id: string, name: string): void {
    const view = this.find(id);
    if (!view) throw new Error('This view no longer exists.');
    const problem = nameProblem(this.all, view.list, name, id);
    if (problem) throw new Error(problem);
    this.#write(this.all.map((v) => (v.id === id ? { ...v, name: name.trim() } : v)));
  }

  /** "Save changes to this view": the list's state now replaces what the view held. */
  update<L extends ListId>(id: string, def: ListDef<L>, state: ListState<L>): void {
    if (!this.find(id)) throw new Error('This view no longer exists.');
    const savedAt = new Date().toISOString();
    this.#write(this.all.map((v) => (v.id === id ? { ...v, ...snapshotOf(def, state), savedAt } : v)));
  }

  remove(id: string): void {
    const view = this.find(id);
    this.#write(this.all.filter((v) => v.id !== id));
    if (view && this.active[view.list] === id) this.close(view.list);
  }

  open(list: ListId, id: string): void {
    this.active = { ...this.active, [list]: id };
  }

  /**
   * Opens view `id` in list `def`: its state as far as the list still takes it (checked against
   * the filter options `optionsOf` reads), and a note saying what was left out, if anything.
   */
  async openIn<L extends ListId>(
    def: ListDef<L>,
    id: string,
    optionsOf: () => Promise<FilterOptions | null>,
  ): Promise<{ state: ListState<L> | null; note: string | null }> {
    this.sync();
    const view = this.find(id);
    if (!view || view.list !== def.id) {
      return { state: null, note: 'This saved view no longer exists: the list shows what it showed before.' };
    }
    const opened = openView(def, view, await optionsOf());
    this.open(def.id, id);
    const note = opened.dropped.length
      ? `Part of “${view.name}” no longer applies to this list and was left out: ${joinDropped(opened.dropped)}.`
      : null;
    return { state: opened.state, note };
  }

  close(list: ListId): void {
    const next = { ...this.active };
    delete next[list];
    this.active = next;
  }
}

export const savedViews = new SavedViews();
