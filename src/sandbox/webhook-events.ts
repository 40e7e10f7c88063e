/** Events a webhook may subscribe to, as the service names them (one list, in `shared/webhooks.ts`). */
import { webhookEventNames } from '../shared/webhooks';

export const webhookEvents: readonly string[] = webhookEventNames;
