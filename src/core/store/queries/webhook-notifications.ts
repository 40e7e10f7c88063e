/** Webhook notifications as last read from the service, newest first, for Settings → Webhooks. */
import type { Db } from '../database';
import { perDb } from '../statements';

export interface WebhookNotificationDbRow {
  id: string;
  webhook_id: string | null;
  webhook_url: string | null;
  event: string | null;
  delivery_status: string | null;
  created_at: string | null;
  reference_type: string | null;
  reference_id: string | null;
}

const newest = perDb((db) =>
  db.prepare<[number], WebhookNotificationDbRow>(
    `SELECT n.id, n.webhook_id, w.url AS webhook_url, n.event, n.delivery_status, n.created_at,
            n.reference_type, n.reference_id
       FROM webhook_notifications n LEFT JOIN webhooks w ON w.id = n.webhook_id
      ORDER BY n.created_at DESC, n.id
      LIMIT ?`,
  ),
);
// Apart from the read: a read-only copy refuses a writing statement at prepare.
const removeOf = perDb((db) => db.prepare<[string]>('DELETE FROM webhook_notifications WHERE webhook_id = ?'));

/** The newest `limit` notifications, each with its webhook's address when known. */
export function newestWebhookNotifications(db: Db, limit: number): WebhookNotificationDbRow[] {
  return newest(db).all(limit);
}

/** Forgets a deleted webhook's notifications. */
export function deleteWebhookNotifications(db: Db, webhookId: string): void {
  removeOf(db).run(webhookId);
}
