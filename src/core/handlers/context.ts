import type { ProfilesState } from '../../shared/types';
import type { CoreOptions } from '../core-options';
import type { Logger } from '../dispatch';
import type { CoreEvents } from '../events';
import type { KeyVault } from '../profiles/key-vault';
import type { ProfileStore } from '../profiles/profile-store';
import type { Session } from '../session';
import type { SettingsStore } from '../settings-store';

/** What every domain's handlers work with. */
export interface CoreContext {
  options: CoreOptions;
  settings: SettingsStore;
  profiles: ProfileStore;
  vault: KeyVault;
  events: CoreEvents;
  log: Logger;
  /** The account being shown (opened on first use). */
  session(): Promise<Session>;
  /**
   * Shows another account: a profile id, or null for the demo account. `whileClosed` runs after
   * the old session's database is closed and before the new one opens (to delete local data).
   */
  switchSession(profileId: string | null, whileClosed?: () => void): Promise<void>;
  profilesState(): Promise<ProfilesState>;
  /** The log file, its latest error lines, and the scrubber every line goes through. */
  logs(): { path: string | null; recentErrors: string[]; scrub(text: string): string };
}
