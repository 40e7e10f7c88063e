/** Webhooks as last read from the service: listed in Settings, removed once the service deleted one. */
import type { Db } from '../database';
import { perDb } from '../statements';

export interface WebhookRow {
  id: string;
  url: string;
  active: number;
  raw: string;
}

const list = perDb((db) =>
  db.prepare<[], WebhookRow>('SELECT id, url, active, raw FROM webhooks WHERE synced_at IS NOT NULL ORDER BY url'),
);
// Apart from the read: a read-only copy refuses a writing statement at prepare.
const remove = perDb((db) => db.prepare<[string]>('DELETE FROM webhooks WHERE id = ?'));

/** Every synced webhook, by URL. */
export function webhookRows(db: Db): WebhookRow[] {
  return list(db).all();
}

/** Forgets a webhook (the service has deleted it). */
export function deleteWebhook(db: Db, id: string): void {
  remove(db).run(id);
}
