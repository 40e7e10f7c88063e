/**
 * The import being worked on, kept while the forwarder moves around the app (core keeps the
 * import itself; this is what the screen shows of it): the table read, the mapping being chosen,
 * the rows and their results, kept current from `imports:progress` events.
 */
import {
  MAX_IMPORT_BYTES,
  type ImportMapping,
  type ImportProgressEvent,
  type ImportState,
  type ImportTable,
} from '../../../shared/imports';
import { api } from './api';
import { messageOf } from './errors';

export type ImportStep = 'source' | 'mapping' | 'preview';

/**
 * A file's bytes as base64, read in slices (a whole file in one `String.fromCharCode` call
 * overflows). At most one byte past the limit is read, whatever size the file claims: core
 * refuses what is over it.
 */
async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.slice(0, MAX_IMPORT_BYTES + 1).arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

class ImportScreen {
  step = $state<ImportStep>('source');
  table = $state<ImportTable | null>(null);
  mapping = $state<ImportMapping | null>(null);
  import = $state<ImportState | null>(null);
  busy = $state(false);
  error = $state<string | null>(null);
  #off: (() => void) | null = null;

  /** Listens for progress (once, until Start over). */
  listen(): void {
    this.#off ??= api.on('imports:progress', (event) => this.#apply(event));
  }

  async readFile(file: File): Promise<void> {
    if (file.size > MAX_IMPORT_BYTES) {
      this.error = `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; Quayside imports files up to ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it, or keep only the columns it needs.`;
      return;
    }
    await this.#read(async () => api.invoke('imports:read', { name: file.name, base64: await base64Of(file) }));
  }

  async readPasted(text: string): Promise<void> {
    if (text.trim() === '') {
      this.error = 'Paste the cells first: copy them in the spreadsheet, then paste them in the box.';
      return;
    }
    await this.#read(() => api.invoke('imports:read', { text }));
  }

  async #read(read: () => Promise<ImportTable>): Promise<void> {
    this.listen();
    this.busy = true;
    this.error = null;
    try {
      const table = await read();
      this.table = table;
      this.mapping = structuredClone($state.snapshot(table.mapping));
      this.import = null;
      // Sure of every column: straight to the preview, where "Change columns" still leads back.
      if (table.unsure.length === 0) await this.preview();
      else this.step = 'mapping';
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.busy = false;
    }
  }

  async preview(): Promise<void> {
    if (!this.table || !this.mapping) return;
    this.busy = true;
    this.error = null;
    try {
      this.#take(await api.invoke('imports:preview', { id: this.table.id, mapping: $state.snapshot(this.mapping) }));
      this.step = 'preview';
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.busy = false;
    }
  }

  async #act(work: () => Promise<ImportState>): Promise<void> {
    this.error = null;
    try {
      this.#take(await work());
    } catch (error) {
      this.error = messageOf(error);
    }
  }

  send(rows?: number[]): Promise<void> {
    const id = this.import?.id;
    return id ? this.#act(() => api.invoke('imports:send', rows ? { id, rows } : { id })) : Promise.resolve();
  }

  cancel(): Promise<void> {
    const id = this.import?.id;
    return id ? this.#act(() => api.invoke('imports:cancel', { id })) : Promise.resolve();
  }

  pickCarrier(row: number, scac: string): Promise<void> {
    const id = this.import?.id;
    return id ? this.#act(() => api.invoke('imports:setCarrier', { id, row, scac })) : Promise.resolve();
  }

  /** Saves every row's result as CSV; the path it was saved at, or null when the user cancelled. */
  async exportResults(): Promise<string | null> {
    const id = this.import?.id;
    if (!id) return null;
    this.error = null;
    try {
      const result = await api.invoke('imports:export', { id });
      return result.cancelled ? null : result.path;
    } catch (error) {
      this.error = messageOf(error);
      return null;
    }
  }

  startOver(): void {
    // Listening again from the next read (an import left behind sends nothing this screen shows).
    this.#off?.();
    this.#off = null;
    this.step = 'source';
    this.table = null;
    this.mapping = null;
    this.import = null;
    this.error = null;
  }

  /** The highest progress event seen per import, also while its state was still on its way. */
  readonly #seen = new Map<string, number>();

  /** A whole state read from core: kept unless the screen already shows a newer one. */
  #take(state: ImportState): void {
    const current = this.import;
    if (current && current.id === state.id && current.version > state.version) return;
    this.import = state;
    // Events that came ahead of this answer are newer than it: read the import again.
    if ((this.#seen.get(state.id) ?? 0) > state.version) this.#reread(state.id);
  }

  #reread(id: string): void {
    void api.invoke('imports:get', { id }).then(
      (state) => this.#take(state),
      () => {},
    );
  }

  #apply(event: ImportProgressEvent): void {
    this.#seen.set(event.id, Math.max(event.version, this.#seen.get(event.id) ?? 0));
    const current = this.import;
    if (!current || current.id !== event.id || event.version <= current.version) return;
    // One missed (its rows are not in this one): the whole import, read again.
    if (event.version !== current.version + 1) {
      this.#reread(event.id);
      return;
    }
    const rows = current.rows.slice();
    // Rows are in file order and numbered as in the file: find each changed one by halving.
    for (const changed of event.rows) {
      let low = 0;
      let high = rows.length - 1;
      while (low <= high) {
        const mid = (low + high) >> 1;
        const at = rows[mid]!.row;
        if (at === changed.row) {
          rows[mid] = changed;
          break;
        }
        if (at < changed.row) low = mid + 1;
        else high = mid - 1;
      }
    }
    this.import = {
      ...current,
      version: event.version,
      phase: event.phase,
      cancelled: event.cancelled,
      stopped: event.stopped,
      progress: event.progress,
      counts: event.counts,
      rows,
    };
  }
}

export const importScreen = new ImportScreen();
