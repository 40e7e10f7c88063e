import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_CHANGE_RETENTION_DAYS } from '../shared/changes';
import { defaultNotificationSettings } from '../shared/alerts';
import { DEFAULT_TERMINAL_STALE_HOURS } from '../shared/pickup';
import { defaultSettings, settingsSchema } from '../shared/settings';
import type { Settings } from '../shared/types';
import { QuaysideError } from './errors';
import { moveAside, readVersionedFile, type FileFormat } from './versioned-file';
import { writeFileAtomic } from './write-file-atomic';

/**
 * settings.json's versions: add an upgrade (never edit one) when the layout changes. A file
 * without a version is version 1 (Quayside wrote the same settings before the field existed).
 * Each setting is optional on disk: a missing one takes its default.
 *
 * Version 2 adds `rates` (per-diem rates for the demurrage and detention estimate): a version-1
 * file has none, so it starts with no rates (estimates show days only).
 * Version 3 adds `changeRetentionDays` (how long the change history keeps changes): a version-2
 * file keeps them the default 180 days. (A Quayside that writes version 2 says a version-3 file is
 * a newer Quayside's, rather than finding a setting it does not know and setting the file aside.)
 * Version 4 adds `terminalStaleHours` (after how many hours the terminal's data is too old to call
 * a box ready or overdue, pickup truth): a version-3 file takes the default 24 hours.
 * Version 5 adds `notifications` (alert rules and desktop notifications): a version-4 file takes
 * the defaults (every rule on, desktop notifications on, off on the demo account).
 */
export const settingsFormat: FileFormat<Partial<Settings> & { version: 5 }> = {
  name: 'settings.json',
  version: 5,
  upgrades: [
    (v1) => ({ ...v1, rates: { currency: 'USD', sets: [] } }),
    (v2) => ({ ...v2, changeRetentionDays: DEFAULT_CHANGE_RETENTION_DAYS }),
    (v3) => ({ ...v3, terminalStaleHours: DEFAULT_TERMINAL_STALE_HOURS }),
    (v4) => ({ ...v4, notifications: defaultNotificationSettings }),
  ],
  unversioned: 1,
  schema: settingsSchema.partial().extend({ version: z.literal(5) }),
};

/** App-wide preferences in `settings.json` in the data folder. */
export class SettingsStore {
  readonly #file: string;
  readonly #log: (message: string) => void;
  #settings: Settings;
  /** A newer Quayside's file: the sentence saying so; nothing is written while it is set. */
  #refusal: string | null = null;
  #unreadable = false;

  constructor(dataDir: string, log: (message: string) => void = () => {}) {
    this.#file = join(dataDir, 'settings.json');
    this.#log = log;
    this.#settings = { ...defaultSettings };
    const read = readVersionedFile(this.#file, settingsFormat);
    if (read.kind === 'read') {
      const { version: _version, ...stored } = read.data;
      this.#settings = { ...defaultSettings, ...stored };
    } else if (read.kind === 'newer') {
      this.#refusal = read.message;
      log(`${read.message} Using default settings.`);
    } else if (read.kind === 'unreadable') {
      this.#unreadable = true;
      log(`settings.json is not readable (${read.reason}); using default settings`);
    }
  }

  /** A newer Quayside's settings.json, in a sentence; null when the file is ours to write. */
  get problem(): string | null {
    return this.#refusal;
  }

  get(): Settings {
    return this.#refusal ? { ...this.#settings, fileProblem: this.#refusal } : { ...this.#settings };
  }

  update(patch: Partial<Settings>): Settings {
    if (this.#refusal) throw new QuaysideError('storage', this.#refusal);
    const next = settingsSchema.parse({ ...this.#settings, ...patch });
    if (this.#unreadable) {
      try {
        this.#log(`settings.json could not be read; kept as ${moveAside(this.#file)}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      this.#unreadable = false;
    }
    writeFileAtomic(this.#file, `${JSON.stringify({ version: settingsFormat.version, ...next }, null, 2)}\n`);
    this.#settings = next;
    return this.get();
  }
}
