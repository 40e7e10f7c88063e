/**
 * Profiles in `profiles.json`: a name, a base URL, where the key is kept and its last four
 * characters. Never the key itself (that is in the secret store under the profile id).
 *
 * A stored base URL that fails the base-URL rule (a file edited by hand, or written by an older
 * Quayside) is read as 'needs-key' with the reason: the key is not sent there, and the profile
 * works again once it is given an accepted base URL and its key.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { checkBaseUrl } from '../../shared/base-url';
import type { KeyStorage, ProfileSummary } from '../../shared/types';
import { QuaysideError } from '../errors';
import { moveAside, readVersionedFile, type FileFormat } from '../versioned-file';
import { writeFileAtomic } from '../write-file-atomic';

export { DEFAULT_BASE_URL } from '../../shared/base-url';

const profileSchema = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  keyLast4: z.string(),
  keyStatus: z.enum(['accepted', 'unverified']),
  keyStorage: z.enum(['keychain', 'safe-storage', 'session']),
  createdAt: z.string(),
  /** A team hub account (`team/hub-account.ts`): the address without its password, and where the password is kept. */
  hub: z
    .object({ url: z.string(), passwordStorage: z.enum(['keychain', 'safe-storage', 'session']).optional() })
    .optional(),
});
const fileSchema = z.object({
  version: z.literal(1),
  profiles: z.array(profileSchema),
  activeId: z.string().nullable(),
});
type ProfilesFile = z.infer<typeof fileSchema>;

/** profiles.json's versions: add an upgrade (never edit one) when the layout changes. */
export const profilesFormat: FileFormat<ProfilesFile> = {
  name: 'profiles.json',
  version: 1,
  upgrades: [],
  unversioned: 1,
  schema: fileSchema,
};
type StoredProfile = z.infer<typeof profileSchema>;

/** A stored profile as the app sees it: 'needs-key' with the reason when its base URL is refused. */
function summarize(p: StoredProfile): ProfileSummary {
  const checked = checkBaseUrl(p.baseUrl);
  if (checked.ok) return { ...p };
  return {
    ...p,
    keyStatus: 'needs-key',
    keyProblem: `${checked.reason} Quayside will not send this profile's key there: enter a base URL it accepts and the key again.`,
  };
}

export class ProfileStore {
  readonly #file: string;
  readonly #dataDir: string;
  readonly #log: (message: string) => void;
  #data: ProfilesFile;
  /** A newer Quayside's file: the sentence saying so; nothing is written while it is set. */
  #refusal: string | null = null;
  /** The file could not be read: it is set aside before the first write. */
  #unreadable: string | null = null;
  #note: string | null = null;

  constructor(dataDir: string, log: (message: string) => void = () => {}) {
    this.#dataDir = dataDir;
    this.#log = log;
    this.#file = join(dataDir, 'profiles.json');
    this.#data = { version: 1, profiles: [], activeId: null };
    const read = readVersionedFile(this.#file, profilesFormat);
    if (read.kind === 'read') {
      this.#data = read.data;
      if (read.upgradedFrom !== null) log(`profiles.json is version ${read.upgradedFrom}; upgraded as it was read`);
    } else if (read.kind === 'newer') {
      this.#refusal = read.message;
      log(read.message);
    } else if (read.kind === 'unreadable') {
      this.#unreadable = read.reason;
      this.#note = `profiles.json could not be read (${read.reason}), so Quayside started with no profiles. It is kept, renamed, when profiles are next saved.`;
      log(`profiles.json is not readable (${read.reason}); starting with no profiles`);
    }
  }

  /**
   * What the app says about profiles.json, or null: a newer Quayside's file (refused, never
   * written) or an unreadable one (set aside).
   */
  get problem(): string | null {
    return this.#refusal ?? this.#note;
  }

  /** The sentence refusing a newer Quayside's profiles.json; null when the file is ours. */
  get refusal(): string | null {
    return this.#refusal;
  }

  list(): ProfileSummary[] {
    return this.#data.profiles.map(summarize);
  }

  get(id: string): ProfileSummary | undefined {
    const found = this.#data.profiles.find((p) => p.id === id);
    return found ? summarize(found) : undefined;
  }

  /** The active profile's id, or null for the demo account. */
  get activeId(): string | null {
    return this.#data.activeId !== null && this.get(this.#data.activeId) ? this.#data.activeId : null;
  }

  add(fields: {
    id?: string;
    name: string;
    baseUrl: string;
    keyLast4: string;
    keyStatus: 'accepted' | 'unverified';
    keyStorage: KeyStorage;
    hub?: { url: string; passwordStorage?: KeyStorage };
  }): ProfileSummary {
    const profile: StoredProfile = { ...fields, id: fields.id ?? randomUUID(), createdAt: new Date().toISOString() };
    this.#save({ ...this.#data, profiles: [...this.#data.profiles, profile] });
    return summarize(profile);
  }

  update(id: string, patch: Partial<Omit<StoredProfile, 'id' | 'createdAt'>>): ProfileSummary {
    const profiles = this.#data.profiles.map((p) => (p.id === id ? { ...p, ...patch } : p));
    this.#save({ ...this.#data, profiles });
    return this.get(id)!;
  }

  remove(id: string): void {
    this.#save({
      ...this.#data,
      profiles: this.#data.profiles.filter((p) => p.id !== id),
      activeId: this.#data.activeId === id ? null : this.#data.activeId,
    });
  }

  setActive(id: string | null): void {
    this.#save({ ...this.#data, activeId: id });
  }

  /** The database file of a profile, or of the demo account. */
  databasePath(id: string | null): string {
    const dir = join(this.#dataDir, id === null ? 'demo' : 'profiles');
    mkdirSync(dir, { recursive: true });
    return join(dir, id === null ? 'demo.sqlite' : `${id}.sqlite`);
  }

  #save(next: ProfilesFile): void {
    if (this.#refusal) throw new QuaysideError('storage', this.#refusal);
    if (this.#unreadable !== null) {
      try {
        const aside = moveAside(this.#file);
        this.#note = `profiles.json could not be read (${this.#unreadable}); it is kept as ${aside} and a new one was started.`;
        this.#log(`profiles.json could not be read; kept as ${aside}`);
      } catch (error) {
        // Gone meanwhile: nothing to keep. Anything else: write nothing over it.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      this.#unreadable = null;
    }
    writeFileAtomic(this.#file, `${JSON.stringify({ ...next, version: profilesFormat.version }, null, 2)}\n`);
    this.#data = next;
  }
}
