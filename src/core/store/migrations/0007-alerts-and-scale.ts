/**
 * Alerts and the change feed: desktop notification rules' bookkeeping and the webhook
 * notification feed with vessels' future positions. One migration in parts, one file
 * each under `0007/`, applied in this order in one transaction like any migration.
 *
 * Released as the text below: its first part (a smaller database) was still empty then and moved
 * to 0008, so the empty first line stays, and the SHA-256 pinned in
 * test/integration/migrations-snapshot.test.ts with it.
 */
import * as feed from './0007/feed';
import * as notifications from './0007/notifications';

export const up = ['', feed.up, notifications.up].join('\n');
