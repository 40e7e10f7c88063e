import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index';
import type { WebhookRow } from '../../src/shared/types';
import { webhookEventNames, type CreatedWebhook, type WebhookNotifications } from '../../src/shared/webhooks';
import { failure, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';

describe('Settings → Webhooks through core', () => {
  const key = 'hooks-KEY-7f6e5d4c3b2a-HK01';
  let sandbox: Sandbox;
  const { core, dataDir } = testCore();
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'hooks', shipments: 30, apiKeys: [key] });
    await value(core, 'profiles:add', { name: 'Hooked Freight', apiKey: key, baseUrl: sandbox.url });
  });
  afterAll(async () => {
    await core.close();
    await sandbox.close();
  });

  /** What the local copy holds, read beside the app as a support person would. */
  async function stored(sql: string): Promise<unknown[]> {
    const info = await value<{ path: string }>(core, 'data:info');
    expect(info.path.startsWith(dataDir)).toBe(true);
    const db = new Database(info.path, { readonly: true });
    try {
      return db.prepare(sql).all();
    } finally {
      db.close();
    }
  }

  it('creates a webhook, shows its secret once and keeps no copy of it, then edits it', async () => {
    const created = await value<CreatedWebhook>(core, 'webhooks:create', {
      url: 'https://tms.example.test/t49',
      active: true,
      events: ['tracking_request.succeeded', 'container.transport.available'],
    });
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{36}$/);
    expect(created.webhook).toMatchObject({ url: 'https://tms.example.test/t49', active: true });
    expect(sandbox.store.world.webhooks.find((w) => w.id === created.webhook.id)?.secret).toBe(created.secret);

    const edited = await value<WebhookRow>(core, 'webhooks:update', {
      id: created.webhook.id,
      active: false,
      events: ['container.updated'],
    });
    expect(edited).toEqual({
      id: created.webhook.id,
      url: 'https://tms.example.test/t49',
      active: false,
      events: ['container.updated'],
    });
    const list = await value<WebhookRow[]>(core, 'webhooks:list');
    expect(list.find((w) => w.id === created.webhook.id)).toEqual(edited);
    // Neither the create's answer nor the list's (which carries secrets) leaves one in the local copy.
    const raws = (await stored('SELECT raw FROM webhooks')) as { raw: string }[];
    expect(raws.some((r) => r.raw.includes(created.secret))).toBe(false);
  });

  it('a webhook made here is looked at by the next sync, not hours later', async () => {
    const info = await value<{ path: string }>(core, 'data:info');
    // A sync found no webhook that hears every change a moment ago (it would not look again for hours).
    const db = new Database(info.path);
    try {
      const now = new Date().toISOString();
      db.prepare(
        "INSERT OR REPLACE INTO sync_state (key, value, updated_at) VALUES ('feed:none_checked_at', ?, ?)",
      ).run(JSON.stringify(now), now);
    } finally {
      db.close();
    }
    await value<CreatedWebhook>(core, 'webhooks:create', {
      url: 'https://tms.example.test/every-change',
      active: true,
      events: [...webhookEventNames],
    });
    expect(await stored("SELECT key FROM sync_state WHERE key = 'feed:none_checked_at'")).toEqual([]);
  });

  it('refuses an address that is not http(s) beside the field, before asking the service', async () => {
    const refused = await failure(core, 'webhooks:create', {
      url: 'ftp://x.test',
      active: true,
      events: ['container.updated'],
    });
    expect(refused.code).toBe('invalid_argument');
    expect(Object.keys(refused.fields ?? {})).toEqual(['url']);
  });

  it('lists the notifications sent (event, delivery, when, about what), newest first, kept for offline', async () => {
    const answer = await value<WebhookNotifications>(core, 'webhooks:notifications');
    expect(answer.error).toBeNull();
    const live = sandbox.store.world.webhookNotifications.filter((n) => n.createdAt <= sandbox.clock.now());
    expect(answer.notifications).toHaveLength(Math.min(100, live.length));
    expect(new Set(answer.notifications.map((n) => n.id))).toEqual(new Set(live.map((n) => n.id)));
    const newest = [...live].sort((a, b) => b.createdAt - a.createdAt)[0]!;
    const row = answer.notifications.find((n) => n.id === newest.id)!;
    expect(row).toMatchObject({
      event: newest.event,
      deliveryStatus: newest.deliveryStatus,
      webhookId: newest.webhook.id,
      webhookUrl: newest.webhook.url,
      referenceType: 'tracking_request',
      referenceId: newest.reference.type === 'tracking_request' ? newest.reference.rec.id : null,
    });
    expect(Math.abs(Date.parse(row.createdAt!) - newest.createdAt)).toBeLessThan(1000);
    const times = answer.notifications.map((n) => n.createdAt!);
    expect([...times].sort().reverse()).toEqual(times);
    expect(answer.notifications.some((n) => n.deliveryStatus === 'failed')).toBe(true);

    // Deleting the webhook takes its notifications with it.
    await value(core, 'webhooks:list');
    await value(core, 'webhooks:delete', { id: newest.webhook.id });
    expect(await stored(`SELECT id FROM webhook_notifications WHERE webhook_id = '${newest.webhook.id}'`)).toEqual([]);
  });
});
