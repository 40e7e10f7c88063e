import type { Envelope, Handlers } from '../shared/ipc';
import type { AppInfo } from '../shared/types';
import { dispatch, type Logger } from './dispatch';
import { CoreEvents } from './events';
import { createHandlers } from './handlers';
import { SettingsStore } from './settings-store';

export interface CoreOptions {
  /** Absolute folder for databases and settings (see resolveDataDir). */
  dataDir: string;
  appVersion: string;
  /** The API key, when one is configured; without one the app runs on demo data. */
  apiKey?: string;
  /** Runtime versions to report; Electron's main passes its own. */
  versions?: Partial<AppInfo['versions']>;
  log?: Logger;
}

export interface Core {
  handlers: Handlers;
  events: CoreEvents;
  /** Validates and runs one IPC call; never throws. */
  call(channel: unknown, arg: unknown): Promise<Envelope<unknown>>;
  close(): Promise<void>;
}

/** The composition root: everything main does, with its dependencies passed in. */
export function createCore(options: CoreOptions): Core {
  const log: Logger = options.log ?? (() => {});
  const events = new CoreEvents();
  const settings = new SettingsStore(options.dataDir, (message) => log(message));
  const appInfo = (): AppInfo => ({
    name: 'Quayside',
    version: options.appVersion,
    dataDir: options.dataDir,
    demo: !options.apiKey,
    versions: {
      node: process.versions.node,
      electron: options.versions?.electron ?? null,
      chrome: options.versions?.chrome ?? null,
    },
  });
  const handlers = createHandlers({ appInfo, settings, events });
  return {
    handlers,
    events,
    call: (channel, arg) => dispatch(handlers, channel, arg, log),
    close: async () => {},
  };
}
