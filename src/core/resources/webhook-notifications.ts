import { storedInstant } from '../store/instant';
import { relId, relType, str } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, syncedAtColumn } from './define';

const c = columns();

/** Webhook notifications, stored when Settings → Webhooks reads the list (newest first). */
export const webhookNotifications = defineResource({
  name: 'webhookNotifications',
  types: ['webhook_notification'],
  table: 'webhook_notifications',
  writeRank: 125,
  columns: {
    id: idColumn,
    webhook_id: c.text((r) => relId(r, 'webhook'), { indexed: true }),
    event: c.text((r) => str(r.attributes.event)),
    delivery_status: c.text((r) => str(r.attributes.delivery_status)),
    created_at: c.text((r) => storedInstant(r.attributes.created_at), { indexed: true }),
    reference_type: c.text((r) => relType(r, 'reference_object')),
    reference_id: c.text((r) => relId(r, 'reference_object')),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
