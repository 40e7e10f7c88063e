/**
 * Profiles in `profiles.json`: a name, a base URL, where the key is kept and its last four
 * characters. Never the key itself (that is in the secret store under the profile id).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { KeyStorage, ProfileSummary } from '../../shared/types';
import { writeFileAtomic } from '../write-file-atomic';

export const DEFAULT_BASE_URL = 'https://api.terminal49.com/v2';

const profileSchema = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  keyLast4: z.string(),
  keyStatus: z.enum(['accepted', 'unverified']),
  keyStorage: z.enum(['keychain', 'safe-storage', 'session']),
  createdAt: z.string(),
});
const fileSchema = z.object({
  version: z.literal(1),
  profiles: z.array(profileSchema),
  activeId: z.string().nullable(),
});
type ProfilesFile = z.infer<typeof fileSchema>;

export class ProfileStore {
  readonly #file: string;
  readonly #dataDir: string;
  #data: ProfilesFile;

  constructor(dataDir: string, log: (message: string) => void = () => {}) {
    this.#dataDir = dataDir;
    this.#file = join(dataDir, 'profiles.json');
    this.#data = { version: 1, profiles: [], activeId: null };
    try {
      const parsed = fileSchema.safeParse(JSON.parse(readFileSync(this.#file, 'utf8')));
      if (parsed.success) this.#data = parsed.data;
      else log('profiles.json is not readable; starting with no profiles');
    } catch {
      // no file yet: no profiles
    }
  }

  list(): ProfileSummary[] {
    return this.#data.profiles.map((p) => ({ ...p }));
  }

  get(id: string): ProfileSummary | undefined {
    const found = this.#data.profiles.find((p) => p.id === id);
    return found ? { ...found } : undefined;
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
  }): ProfileSummary {
    const profile: ProfileSummary = { ...fields, id: fields.id ?? randomUUID(), createdAt: new Date().toISOString() };
    this.#save({ ...this.#data, profiles: [...this.#data.profiles, profile] });
    return { ...profile };
  }

  update(id: string, patch: Partial<Omit<ProfileSummary, 'id' | 'createdAt'>>): ProfileSummary {
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
    writeFileAtomic(this.#file, `${JSON.stringify(next, null, 2)}\n`);
    this.#data = next;
  }
}
