import { defaultNotificationSettings, type DesktopNotification } from '../shared/alerts';
import type { Envelope, Handlers } from '../shared/ipc';
import type { AppInfo, ProfilesState } from '../shared/types';
import type { CoreOptions } from './core-options';
import { dispatch, type Logger } from './dispatch';
import { QuaysideError } from './errors';
import type { DemoService } from './demo-service';
import { CoreEvents } from './events';
import { createHandlers } from './handlers';
import type { CoreContext } from './handlers/context';
import { KeyVault } from './profiles/key-vault';
import { DEFAULT_BASE_URL, ProfileStore } from './profiles/profile-store';
import { Session } from './session';
import { HUB_ADDRESS_FIELD, hubPasswordAccount, READ_ONLY_MESSAGE } from './team/hub-account';
import { laptopHubAddress } from './team/puller';
import { createFileLog } from './log/file-log';
import { Redactor } from './log/redact';
import { SettingsStore } from './settings-store';
import { boundHeapGrowth } from './heap-growth';

export type { CoreOptions } from './core-options';
export type { DemoServer, DemoService } from './demo-service';

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
  boundHeapGrowth();
  // Every key the app sees is registered here, and every log line is scrubbed of them.
  const redactor = new Redactor();
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
  // The demo service's key is known to the log as soon as the service is up.
  const injectedDemo = options.demo;
  const demo: DemoService | undefined = injectedDemo && {
    start: async () => {
      const server = await injectedDemo.start();
      redactor.add(server.apiKey);
      return server;
    },
  };
  let session: Promise<Session> | null = null;
  let closed = false;

  /** A sync's alerts on the desktop, when Settings want them (the demo account's only when turned on). */
  const showNotification = (demoAccount: boolean, notification: DesktopNotification): void => {
    const wanted = settings.get().notifications ?? defaultNotificationSettings;
    if (!wanted.desktop || (demoAccount && !wanted.inDemo)) return;
    options.notify?.({ ...notification, open: () => events.emit('app:navigate', { route: notification.route }) });
  };

  const openSession = async (profileId: string | null): Promise<Session> => {
    const profile = profileId === null ? null : (profiles.get(profileId) ?? null);
    // A profile whose base URL the rule refuses ('needs-key') never has its key sent: no key, no sync.
    const apiKey =
      profile && profile.keyStatus !== 'needs-key' ? await vault.load(profile.id, profile.keyStorage) : null;
    redactor.add(apiKey);
    // A team hub account pulls from the hub; its API key, when this computer has one, serves the actions.
    const hub = profile?.hub;
    const hubPassword = hub?.passwordStorage
      ? await vault.load(hubPasswordAccount(profile!.id), hub.passwordStorage)
      : null;
    redactor.add(hubPassword);
    return Session.open({
      profileId: profile?.id ?? null,
      dbPath: profiles.databasePath(profile?.id ?? null),
      baseUrl: profile?.baseUrl ?? DEFAULT_BASE_URL,
      apiKey,
      keyProblem:
        profile?.keyStatus === 'needs-key' ? profile.keyProblem : hub && !apiKey ? READ_ONLY_MESSAGE : undefined,
      ...(hub
        ? { hub: { address: () => laptopHubAddress(hub.url, hubPassword ?? undefined, HUB_ADDRESS_FIELD) } }
        : {}),
      syncIntervalMinutes: settings.get().syncIntervalMinutes,
      documentFileLimits: () => settings.get().documentFiles ?? { maxFileMb: 25, maxTotalMb: 2048 },
      changeRetentionDays: () => settings.get().changeRetentionDays,
      alertRules: () => settings.get().notifications,
      notify: options.notify && ((notification) => showNotification(profile === null, notification)),
      now: options.now,
      readsAside: options.readsAside,
      retryWait: options.retryWait,
      autoSync: options.autoSync ?? true,
      fetch: options.fetch,
      demo,
      onProgress: (progress) => events.emit('sync:progress', progress),
      onStatus: (status) => events.emit('sync:status', status),
      onDataChanged: () => events.emit('data:changed'),
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
      events.emit('data:changed');
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
      // A key on its way in (add, update, validate) is known to the log before anything can log it,
      // and so is a team hub's password.
      if (arg !== null && typeof arg === 'object' && 'apiKey' in arg)
        redactor.add((arg as { apiKey?: unknown }).apiKey as string);
      if (arg !== null && typeof arg === 'object' && 'password' in arg)
        redactor.add((arg as { password?: unknown }).password as string);
      if (arg !== null && typeof arg === 'object' && 'hubUrl' in arg) redactor.add(urlPassword(arg.hubUrl));
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

/** The password a typed URL holds, for the log's scrubber. */
function urlPassword(text: unknown): string | null {
  try {
    return typeof text === 'string' ? decodeURIComponent(new URL(text).password) || null : null;
  } catch {
    return null;
  }
}
