import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSettings, settingsSchema } from '../shared/settings';
import type { Settings } from '../shared/types';
import { writeFileAtomic } from './write-file-atomic';

/** App-wide preferences in `settings.json` in the data folder. */
export class SettingsStore {
  readonly #file: string;
  #settings: Settings;

  constructor(dataDir: string, log: (message: string) => void = () => {}) {
    this.#file = join(dataDir, 'settings.json');
    this.#settings = readSettings(this.#file, log);
  }

  get(): Settings {
    return { ...this.#settings };
  }

  update(patch: Partial<Settings>): Settings {
    const next = settingsSchema.parse({ ...this.#settings, ...patch });
    writeFileAtomic(this.#file, `${JSON.stringify(next, null, 2)}\n`);
    this.#settings = next;
    return this.get();
  }
}

/** A missing file means defaults; a damaged one is reported and replaced by defaults on next save. */
function readSettings(file: string, log: (message: string) => void): Settings {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { ...defaultSettings };
  }
  try {
    const stored = settingsSchema.partial().safeParse(JSON.parse(text));
    if (stored.success) return { ...defaultSettings, ...stored.data };
  } catch {
    // falls through to the report below
  }
  log(`settings.json is not readable; using default settings`);
  return { ...defaultSettings };
}
