import type { Handlers } from '../shared/ipc';
import type { CoreContext } from './handlers/context';
import { actionHandlers } from './handlers/actions';
import { alertHandlers } from './handlers/alerts';
import { changeHandlers } from './handlers/changes';
import { customFieldHandlers } from './handlers/custom-fields';
import { customFieldAdminHandlers } from './handlers/custom-field-admin';
import { dataHandlers } from './handlers/data';
import { documentHandlers } from './handlers/documents';
import { exportHandlers } from './handlers/export';
import { importHandlers } from './handlers/imports';
import { insightsHandlers } from './insights/handlers';
import { profileHandlers } from './handlers/profiles';
import { syncHandlers } from './handlers/sync';
import { teamHubHandlers } from './handlers/team-hub';
import { lookupHandlers } from './handlers/lookups';
import { viewHandlers } from './handlers/views';
import { routingHandlers } from './handlers/routing';
import { serviceActionHandlers } from './handlers/service-actions';
import { serviceSearchHandlers } from './handlers/service-search';
import { webhookHandlers } from './handlers/webhooks';
import type { AppInfo } from '../shared/types';

/** The IPC contract implemented on top of core's services, one domain per file. Arguments arrive validated. */
export function createHandlers(ctx: CoreContext, appInfo: () => AppInfo): Handlers {
  return {
    'app:info': () => appInfo(),
    'settings:get': () => ctx.settings.get(),
    'settings:update': async (patch) => {
      const settings = ctx.settings.update(patch);
      if (patch.syncIntervalMinutes !== undefined) (await ctx.session()).setSyncInterval(settings.syncIntervalMinutes);
      ctx.events.emit('settings:changed', settings);
      return settings;
    },
    ...dataHandlers(ctx, appInfo),
    ...profileHandlers(ctx),
    ...teamHubHandlers(ctx),
    ...syncHandlers(ctx),
    ...viewHandlers(ctx),
    ...routingHandlers(ctx),
    ...lookupHandlers(ctx),
    ...actionHandlers(ctx),
    ...customFieldHandlers(ctx),
    ...customFieldAdminHandlers(ctx),
    ...exportHandlers(ctx),
    ...serviceActionHandlers(ctx),
    ...serviceSearchHandlers(ctx),
    ...webhookHandlers(ctx),
    ...documentHandlers(ctx),
    ...importHandlers(ctx),
    ...changeHandlers(ctx),
    ...alertHandlers(ctx),
    ...insightsHandlers(ctx),
  };
}
