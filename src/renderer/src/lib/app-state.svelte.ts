/**
 * What every screen shares: app info, settings, profiles, the sync state and connectivity,
 * kept current by main's events. `dataVersion` moves whenever local data changes, so views
 * that depend on it refetch.
 */
import type { AppInfo, ProfilesState, Settings, SyncProgressInfo, SyncStatus } from '../../../shared/types';
import { api } from './api';
import { messageOf } from './errors';

class AppState {
  info = $state<AppInfo | null>(null);
  settings = $state<Settings | null>(null);
  profiles = $state<ProfilesState | null>(null);
  sync = $state<SyncStatus | null>(null);
  progress = $state<SyncProgressInfo | null>(null);
  online = $state(true);
  loadError = $state<string | null>(null);
  dataVersion = $state(0);
  /** Moves once a minute so "N minutes ago" stays true. */
  now = $state(Date.now());
  /** How many `sync:status` events have arrived (see `#takeStatus`). */
  #statusEvents = 0;

  get demo(): boolean {
    return this.info?.demo ?? false;
  }

  get timeDisplay() {
    return this.settings?.timeDisplay ?? 'local';
  }

  /** Why an action that needs the service cannot run now, or null when it can. */
  get offlineReason(): string | null {
    if (!this.online)
      return 'Offline: the Tracking API cannot be reached. This works again once the connection is back.';
    return null;
  }

  async start(): Promise<() => void> {
    const offs = [
      api.on('settings:changed', (next) => (this.settings = next)),
      api.on('profiles:changed', (next) => {
        this.profiles = next;
        void this.refreshInfo();
      }),
      api.on('sync:status', (status) => {
        this.#statusEvents++;
        this.sync = status;
        this.online = status.online;
        this.progress = status.state === 'syncing' ? (status.progress ?? this.progress) : null;
      }),
      api.on('sync:progress', (progress) => (this.progress = progress)),
      api.on('connectivity:changed', ({ online }) => (this.online = online)),
      api.on('data:changed', () => this.dataVersion++),
      // A desktop notification was clicked: show the list behind it (only the app's own places).
      api.on('app:navigate', ({ route }) => {
        if (/^#\/[a-z-]+(\/[^?#]*)?(\?[^#]*)?$/.test(route)) window.location.hash = route;
      }),
    ];
    const timer = setInterval(() => (this.now = Date.now()), 30_000);
    try {
      await this.load();
    } catch (error) {
      this.loadError = messageOf(error);
    }
    return () => {
      clearInterval(timer);
      for (const off of offs) off();
    };
  }

  /** Reads what every screen shares (at start, and after the local copy was replaced). */
  async load(): Promise<void> {
    const seen = this.#statusEvents;
    const [info, settings, profiles, sync] = await Promise.all([
      api.invoke('app:info'),
      api.invoke('settings:get'),
      api.invoke('profiles:list'),
      api.invoke('sync:status'),
    ]);
    this.info = info;
    this.settings = settings;
    this.profiles = profiles;
    if (this.#takeStatus(sync, seen)) this.progress = sync.progress;
    this.loadError = null;
  }

  /**
   * Main's `sync:status` events follow every change, so one that arrived while a read of the
   * status was on its way is at least as new as it: the read is used only when none did (a sync
   * that started during start-up must not be shown as idle until its next change).
   */
  #takeStatus(read: SyncStatus, eventsBefore: number): boolean {
    if (this.#statusEvents !== eventsBefore) return false;
    this.sync = read;
    this.online = read.online;
    return true;
  }

  /**
   * "Sync now": starts a sync of the account shown (when one is already running, reads the status
   * again instead). Resolves with the sentence to show when it was refused, else null.
   */
  async startSync(): Promise<string | null> {
    try {
      const { started } = await api.invoke('sync:start', { mode: 'auto' });
      if (!started) await this.refreshInfo();
      return null;
    } catch (error) {
      return messageOf(error);
    }
  }

  async refreshInfo(): Promise<void> {
    try {
      this.info = await api.invoke('app:info');
      const seen = this.#statusEvents;
      this.#takeStatus(await api.invoke('sync:status'), seen);
    } catch {
      // The next event brings it.
    }
  }
}

export const app = new AppState();
