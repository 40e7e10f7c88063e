import type { Handlers } from '../shared/ipc';
import type { AppInfo } from '../shared/types';
import type { CoreEvents } from './events';
import type { SettingsStore } from './settings-store';

export interface HandlerDeps {
  appInfo: () => AppInfo;
  settings: SettingsStore;
  events: CoreEvents;
}

/** The IPC contract implemented on top of core's services. Arguments arrive validated. */
export function createHandlers(deps: HandlerDeps): Handlers {
  return {
    'app:info': () => deps.appInfo(),
    'settings:get': () => deps.settings.get(),
    'settings:update': (patch) => {
      const settings = deps.settings.update(patch);
      deps.events.emit('settings:changed', settings);
      return settings;
    },
  };
}
