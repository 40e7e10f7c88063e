/**
 * Migration 0005, webhook notifications: what the service sent, or tried to send, to
 * the account's webhooks: the event, whether it was delivered, when, and the record it is about
 * (by type and id: a tracking request, shipment, container or transport event, so no foreign
 * key). The webhook is named by id without a foreign key either: a webhook deleted here takes its
 * notifications with it, and one deleted elsewhere leaves them readable until the next read.
 */
export const up = `
CREATE TABLE webhook_notifications (
  id TEXT PRIMARY KEY,
  webhook_id TEXT,
  event TEXT,
  delivery_status TEXT,
  created_at TEXT,
  reference_type TEXT,
  reference_id TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;
CREATE INDEX webhook_notifications_created_at ON webhook_notifications (created_at);
CREATE INDEX webhook_notifications_webhook_id ON webhook_notifications (webhook_id);
`;
