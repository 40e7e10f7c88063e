import type { Envelope, Handlers } from '../shared/ipc';
import type { AppInfo, ProfilesState } from '../shared/types';
import { dispatch, type Logger } from './dispatch';
import { QuaysideError } from './errors';
import { CoreEvents } from './events';
import { createHandlers } from './handlers';
import type { CoreContext } from './handlers/context';
import { KeyVault } from './profiles/key-vault';
import { DEFAULT_BASE_URL, ProfileStore } from './profiles/profile-store';
import type { SafeStorageStore, SecretStore } from './secrets/index';
import { Session } from './session';
import { createFileLog } from './log/file-log';
import { Redactor } from './log/redact';
import { DEMO_API_KEY } from '../sandbox/index';
import { SettingsStore } from './settings-store';

export interface CoreOptions {
  /** Absolute folder for databases and settings (see resolveDataDir). */
  dataDir: string;
  appVersion: string;
  /** Runtime versions to report; Electron's main passes its own. */
  versions?: Partial<AppInfo['versions']>;
  /** Where log lines go besides the log file (main: the console). They arrive scrubbed of keys. */
  log?: Logger;
  /** The folder of the rotated log file (main: `<user data>/logs`); no file when absent. */
  logDir?: string;
  /** Where keys are kept: the OS keychain and Electron's safeStorage when main has them. */
  secrets?: { keychain?: SecretStore; safeStorage?: SafeStorageStore; probeTimeoutMs?: number };
  /** Asks where to save an export (main: a save dialog); null when the user cancels. */
  chooseExportPath?: (suggestedName: string) => Promise<string | null>;
  /** Periodic background sync (off in tests that drive sync themselves). */
  autoSync?: boolean;
  demo?: { seed?: string; shipments?: number };
  fetch?: typeof fetch;
}

export interface Core {
  handlers: Handlers;
  events: CoreEvents;
  /** Writes to the app's log (scrubbed of keys, rotated): main logs updater and process errors here. */
  log: Logger;
  /** Validates and runs one IPC call; never throws. */
  call(channel: unknown, arg: unknown): Promise<Envelope<unknown>>;
  close(): Promise<void>;
}

/** The composition root: everything main does, with its dependencies passed in. */
export function createCore(options: CoreOptions): Core {
  // Every key the app sees is registered here, and every log line is scrubbed of them.
  const redactor = new Redactor();
  redactor.add(DEMO_API_KEY);
  const appLog = createFileLog({
    dir: options.logDir,
    redactor,
    echo: options.log ? (line) => options.log!(line) : undefined,
  });
  const log: Logger = (message, error) => appLog.write(error === undefined ? 'info' : 'error', message, error);
  const events = new CoreEvents();
  const settings = new SettingsStore(options.dataDir, (message) => log(message));
  const profiles = new ProfileStore(options.dataDir, (message) => log(message));
  const vault = new KeyVault({ ...options.secrets, log: (message) => log(message) });
  let session: Promise<Session> | null = null;
  let closed = false;

  const openSession = async (profileId: string | null): Promise<Session> => {
    const profile = profileId === null ? null : (profiles.get(profileId) ?? null);
    // A profile whose base URL the rule refuses ('needs-key') never has its key sent: no key, no sync.
    const apiKey =
      profile && profile.keyStatus !== 'needs-key' ? await vault.load(profile.id, profile.keyStorage) : null;
    redactor.add(apiKey);
    return Session.open({
      profileId: profile?.id ?? null,
      dbPath: profiles.databasePath(profile?.id ?? null),
      baseUrl: profile?.baseUrl ?? DEFAULT_BASE_URL,
      apiKey,
      keyProblem: profile?.keyStatus === 'needs-key' ? profile.keyProblem : undefined,
      syncIntervalMinutes: settings.get().syncIntervalMinutes,
      autoSync: options.autoSync ?? true,
      fetch: options.fetch,
      demo: { seed: options.demo?.seed ?? 'demo', shipments: options.demo?.shipments ?? 300 },
      onProgress: (progress) => events.emit('sync:progress', progress),
      onStatus: (status) => events.emit('sync:status', status),
      onDataChanged: (resources) => events.emit('data:changed', { resources }),
      onConnectivity: (now) => events.emit('connectivity:changed', { online: now }),
      log,
    });
  };

  const ctx: CoreContext = {
    options,
    settings,
    profiles,
    vault,
    events,
    log,
    session: () => {
      if (closed) return Promise.reject(new QuaysideError('busy', 'Quayside is closing.'));
      if (!session) {
        const opening = openSession(profiles.activeId);
        session = opening;
        // A failed open (a database from a newer Quayside, a busy file) is retried on the next call.
        opening.catch(() => {
          if (session === opening) session = null;
        });
      }
      return session;
    },
    switchSession: async (profileId, whileClosed) => {
      const previous = session;
      profiles.setActive(profileId);
      // The pending switch is the session from now on: a call made meanwhile waits for it rather
      // than opening one of its own.
      const opening = (async () => {
        await (await previous?.catch(() => null))?.close();
        whileClosed?.();
        return openSession(profileId);
      })();
      session = opening;
      opening.catch(() => {
        if (session === opening) session = null;
      });
      await opening;
      events.emit('data:changed', { resources: ['shipments', 'containers', 'tracking_requests', 'reference'] });
    },
    logs: () => ({
      path: appLog.path,
      recentErrors: appLog.recentErrors(),
      scrub: (text) => redactor.scrub(text),
    }),
    profilesState: async (): Promise<ProfilesState> => ({
      profiles: profiles.list(),
      activeId: profiles.activeId,
      keyStorage: await vault.describe(),
      ...(profiles.problem ? { fileProblem: profiles.problem } : {}),
    }),
  };

  const appInfo = (): AppInfo => ({
    name: 'Quayside',
    version: options.appVersion,
    dataDir: options.dataDir,
    demo: profiles.activeId === null,
    versions: {
      node: process.versions.node,
      electron: options.versions?.electron ?? null,
      chrome: options.versions?.chrome ?? null,
    },
  });
  const handlers = createHandlers(ctx, appInfo);
  return {
    handlers,
    events,
    log,
    call: (channel, arg) => {
      // A key on its way in (add, update, validate) is known to the log before anything can log it.
      if (arg !== null && typeof arg === 'object' && 'apiKey' in arg)
        redactor.add((arg as { apiKey?: unknown }).apiKey as string);
      return dispatch(handlers, channel, arg, log);
    },
    close: async () => {
      closed = true;
      const current = session;
      session = null;
      await (await current?.catch(() => null))?.close();
    },
  };
}
