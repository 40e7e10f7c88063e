/**
 * The other ways bytes from the service or a user's file reach the disk, memory or the system,
 * each tried with a hostile input through the real core, CLI or sync: custom field definitions,
 * options and values; email submissions; route maps; webhooks and their notifications (and the
 * change feed that reads them); settings.json and profiles.json in the data folder. Each ends
 * with what a user would see: one sentence or a bounded, readable answer, nothing lost, and the
 * next sync working.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { MAX_LINE_POINTS } from '../../src/core/details/route-map';
import { readState } from '../../src/core/store/sync-state';
import { FEED_LAST_KEY } from '../../src/core/sync/feed';
import { VERSIONED_FILE_MAX_BYTES } from '../../src/core/versioned-file';
import { startSandbox } from '../../src/sandbox/index';
import type { CustomFieldDefinitionInfo } from '../../src/shared/custom-fields';
import type { ContainerRoute } from '../../src/shared/routing';
import type { ShipmentRow } from '../../src/shared/rows';
import type { ProfilesState, Settings, SyncStatus, WebhookRow } from '../../src/shared/types';
import type { Core } from '../../src/core/core';
import { capture } from '../helpers/capture';
import { syncNow, testCore, value } from '../helpers/core';
import { startHostileProxy, useHostileProxy, type ProxiedRequest, type ProxyAnswer } from '../helpers/hostile-proxy';
import { call, useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

const MB = 1024 * 1024;
const UNREADABLE = 'The Tracking API sent an answer Quayside could not read.';
const urlOf = (request: ProxiedRequest) => new URL(request.url, 'http://proxy.invalid');
const pathOf = (request: ProxiedRequest) => urlOf(request).pathname;
type Rewrite = (
  request: ProxiedRequest,
  answer: { status: number; headers: Record<string, string>; json: unknown },
) => ProxyAnswer | undefined;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests rewrite the service's documents freely
type Doc = any;

/** Starts a full sync and waits for it to end, however long the client's retries take. */
async function syncToEnd(core: Core): Promise<SyncStatus> {
  await value(core, 'sync:start', { mode: 'full' });
  for (;;) {
    const status = await value<SyncStatus>(core, 'sync:status');
    if (status.state !== 'syncing') return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** JSON text nested `depth` arrays deep. */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A body of `total` bytes of `[1,2],` (a line without end), written as the reader takes it. */
function endlessLine(total: number) {
  return (res: ServerResponse) => {
    const chunk = Buffer.from('[1,2],'.repeat(10_000));
    let sent = 0;
    res.write(
      '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"feature_type":"past_vessel_locations"},"geometry":{"type":"LineString","coordinates":[',
    );
    const pump = () => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end('[1,2]]}}]}');
    };
    pump();
  };
}

describe('answers from a hostile service, through the core', { timeout: 120_000 }, () => {
  let rewrite: Rewrite = () => undefined;
  let intercept: (request: ProxiedRequest) => ProxyAnswer | undefined = () => undefined;
  let core: Core;
  let dataDir: string;
  // Each test its own core and key: the client's limiter (the service's 100 a minute) is per key.
  beforeEach(() => {
    rewrite = () => undefined;
    intercept = () => undefined;
    const key = randomUUID();
    ({ core, dataDir } = testCore({
      demo: {
        async start() {
          const sandbox = await startSandbox({
            seed: 'hostile-surfaces',
            shipments: 8,
            apiKeys: [key],
            routing: true,
            rateLimit: { limit: 10_000, windowSeconds: 60 },
          });
          const proxy = await startHostileProxy({
            upstream: sandbox.url,
            intercept: (request) => intercept(request),
            rewrite: (request, answer) => rewrite(request, answer),
          });
          return {
            url: proxy.url,
            apiKey: key,
            close: async () => {
              await proxy.close();
              await sandbox.close();
            },
          };
        },
      },
    }));
  });
  afterEach(() => core.close());
  const dbPath = () => join(dataDir, 'demo', 'demo.sqlite');
  const exportCsv = async (list: string, columns: string) => {
    const out = join(tempDir(), `${list}.csv`);
    const err = capture();
    const code = await runCli(['export', list, '--db', dbPath(), '--out', out, '--columns', columns], {
      out: capture().stream,
      err: err.stream,
    });
    expect(err.text()).toBe('');
    expect(code).toBe(exitCodes.ok);
    const rows: string[][] = parse(readFileSync(out, 'utf8'), { bom: true, record_delimiter: '\r\n' });
    return rows;
  };
  /** The same database syncs again once the service behaves. */
  const syncsAgain = async () => {
    rewrite = () => undefined;
    intercept = () => undefined;
    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
  };
  it('route maps: a line of a million points is kept thinned, one past the body limit skipped, bad points left out', async () => {
    const points = Array.from({ length: 1_000_000 }, (_, i) => `[${(i % 360) - 180},${(i % 170) - 85}]`).join(',');
    const bad = JSON.stringify({
      type: 'Feature',
      properties: { feature_type: 'estimated_full_legs', ports_sequence: 2 },
      geometry: { type: 'LineString', coordinates: [['1', '2'], [null, 1], [1000, 1], [1, 2, 3], [3, 4], 'x'] },
    });
    const asked: string[] = [];
    intercept = (request) => {
      const match = /^\/v2\/containers\/([^/]+)\/map_geojson$/.exec(pathOf(request));
      if (!match) return undefined;
      asked.push(match[1]!);
      // The first box asked: a line without end, cut by the client at its body limit.
      return asked.length === 1 ? { status: 200, body: endlessLine(80 * MB) } : undefined;
    };
    rewrite = (request, answer) => {
      if (!/\/map_geojson$/.test(pathOf(request)) || answer.status !== 200) return undefined;
      const head = JSON.stringify(answer.json).replace(/\]\}$/, '');
      const huge = `{"type":"Feature","properties":{"feature_type":"past_vessel_locations","ports_sequence":1},"geometry":{"type":"LineString","coordinates":[${points}]}}`;
      return { status: 200, headers: answer.headers, body: `${head},${bad},${huge}]}` };
    };
    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
    expect(asked.length).toBeGreaterThan(2);

    const [skipped, ...kept] = asked;
    expect(await value<ContainerRoute>(core, 'containers:route', { id: skipped })).toMatchObject({ state: 'none' });
    const db = new Database(dbPath(), { readonly: true });
    const largest = db.prepare('SELECT max(length(geojson)) FROM container_routes').pluck().get() as number;
    db.close();
    expect(largest).toBeLessThan(MB);
    for (const id of kept) {
      const route = await value<ContainerRoute>(core, 'containers:route', { id });
      if (route.state !== 'map') throw new Error(`no map for ${id}: ${route.state}`);
      const past = route.lines.find((l) => l.kind === 'past' && l.sequence === 1)!;
      expect(past.coordinates).toHaveLength(MAX_LINE_POINTS);
      expect(past.coordinates[0]).toEqual([-180, -85]);
      expect(past.coordinates.at(-1)).toEqual([((1_000_000 - 1) % 360) - 180, ((1_000_000 - 1) % 170) - 85]);
      expect(route.lines.find((l) => l.sequence === 2 && l.coordinates.length === 2)?.coordinates).toEqual([
        [1, 2],
        [3, 4],
      ]);
    }
    await syncsAgain();
  });

  it('custom fields: a 1 MB value, 200,000 options, names that are the object’s own, controls and bidi in a name', async () => {
    const definitions = new Map<string, string>();
    let holder = '';
    rewrite = (request, answer) => {
      const path = pathOf(request);
      const doc = answer.json as Doc;
      if (path === '/v2/custom_field_definitions' && doc?.data) {
        const define = (slug: string, name: string, type = 'short_text') => {
          definitions.set(slug, randomUUID());
          const attributes = { entity_type: 'Shipment', api_slug: slug, display_name: name, data_type: type };
          return { id: definitions.get(slug), type: 'custom_field_definition', attributes };
        };
        doc.data.push(
          define('__proto__', 'Proto'),
          define('constructor', 'Maker'),
          define('number', 'Number \u202Egnp.exe\u0007'),
          define('huge_pick', 'Huge pick', 'enum'),
        );
        return { status: 200, headers: answer.headers, body: doc };
      }
      if (path === `/v2/custom_field_definitions/${definitions.get('huge_pick')}/options`) {
        const data = Array.from({ length: 200_000 }, (_, i) => ({
          id: `option-${i}`,
          type: 'custom_field_option',
          attributes: { label: `Option ${i}`, value: `v${i}`, position: i },
        }));
        return { status: 200, headers: answer.headers, body: { data, links: {}, meta: {} } };
      }
      if (path === '/v2/custom_fields' && urlOf(request).searchParams.get('filter[entity_type]') === 'Shipment') {
        const first = doc.data.find((v: Doc) => v.attributes.api_slug === 'po_number');
        holder = first.relationships.entity.data.id;
        first.attributes.value = 'x'.repeat(MB);
        first.attributes.display_value = null;
        const valueOf = (slug: string, v: unknown) => ({
          id: randomUUID(),
          type: 'custom_field',
          attributes: { api_slug: slug, value: v, display_value: null },
          relationships: {
            entity: { data: { id: holder, type: 'shipment' } },
            definition: { data: { id: definitions.get(slug), type: 'custom_field_definition' } },
          },
        });
        doc.data.push(valueOf('__proto__', 'proto-value'), valueOf('number', 'cf-number'));
        return { status: 200, headers: answer.headers, body: doc };
      }
      return undefined;
    };
    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });

    const fields = await value<CustomFieldDefinitionInfo[]>(core, 'customFields:definitions', {
      entityType: 'shipment',
    });
    expect(fields.find((f) => f.apiSlug === 'huge_pick')?.options).toHaveLength(200_000);
    const { rows } = await value<{ rows: ShipmentRow[] }>(core, 'shipments:list', { page: { limit: 100 } });
    const row = rows.find((r) => r.id === holder)!;
    expect(Object.hasOwn(row.customFields, '__proto__')).toBe(true);
    expect(row.customFields['__proto__']?.text).toBe('proto-value');
    expect(row.customFields.number?.text).toBe('cf-number');
    expect(row.billOfLading).not.toBe('cf-number');
    // A field named like an object's member is no member of a record without its value.
    expect(fields.some((f) => f.apiSlug === 'constructor')).toBe(true);
    for (const r of rows) expect(Object.hasOwn(r.customFields, 'constructor')).toBe(false);
    expect(({} as Record<string, unknown>).text).toBeUndefined();

    const csv = await exportCsv('shipments', 'number,cf.number,cf.__proto__,cf.po_number');
    expect(csv[0]).toEqual(['Bill of lading', 'Number gnp.exe', 'Proto', 'PO number']);
    const line = csv.find((r) => r[1] === 'cf-number')!;
    expect(line[2]).toBe('proto-value');
    expect(line[3]!.length).toBeLessThanOrEqual(32_767);
    expect(line[3]!.startsWith('xxxx')).toBe(true);
    await syncsAgain();
  });

  it('JSON nested 100,000 deep in a value ends the run with one sentence, and the next sync works', async () => {
    rewrite = (request, answer) => {
      const shipments = urlOf(request).searchParams.get('filter[entity_type]') === 'Shipment';
      if (pathOf(request) !== '/v2/custom_fields' || !shipments || answer.status !== 200) return undefined;
      const doc = answer.json as Doc;
      if (!doc.data[0]) return undefined;
      doc.data[0].attributes.value = '@deep@';
      return { status: 200, headers: answer.headers, body: JSON.stringify(doc).replace('"@deep@"', nested(100_000)) };
    };
    // The client asks again a few times (an answer cut short may come whole), as for any unreadable one.
    expect(await syncToEnd(core)).toMatchObject({ state: 'failed', error: UNREADABLE });
    await syncsAgain();
  });

  it('email submissions: a subject with line breaks, bidi and controls over 1 MB, counts and dates that are not', async () => {
    const subject = `Invoice\r\nBcc: all@example.com \u202Efdp.exe\u0000${'s'.repeat(MB)}`;
    const changed = new Map<string, Doc>();
    rewrite = (request, answer) => {
      const doc = answer.json as Doc;
      if (pathOf(request) !== '/v2/email_submissions' || !doc?.data?.length) return undefined;
      const [a, b, c, d] = doc.data as Doc[];
      Object.assign(a.attributes, { subject, from: ['bad\r\nsender@example.com', { x: 1 }], documents_count: 1e300 });
      Object.assign(b.attributes, { documents_count: 2.5, sent_at: '2026-02-30T25:61:00Z', from: 'not a list' });
      Object.assign(c.attributes, { documents_count: -7, sent_at: 'yesterday' });
      Object.assign(d.attributes, { documents_count: '12', created_at: '99999-01-01T00:00:00Z' });
      for (const s of [a, b, c, d]) changed.set(s.id, s.attributes);
      return { status: 200, headers: answer.headers, body: doc };
    };
    expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });

    const { rows } = await value<{ rows: Doc[] }>(core, 'emailSubmissions:list', { page: { limit: 100 } });
    const [a, b, c, d] = [...changed.keys()].map((id) => rows.find((r) => r.id === id));
    expect(a).toMatchObject({ subject, from: 'bad\r\nsender@example.com', documentsCount: 0 });
    expect(b).toMatchObject({ sentAt: null, from: null, documentsCount: 0, status: 'no_documents' });
    expect(c).toMatchObject({ sentAt: null, documentsCount: 0, status: 'no_documents' });
    expect(d).toMatchObject({ documentsCount: 0 });
    // The service's own value is kept with the record.
    const db = new Database(dbPath(), { readonly: true });
    const kept = db
      .prepare("SELECT json_extract(raw, '$.attributes.documents_count') FROM email_submissions WHERE id = ?")
      .pluck()
      .get(b.id);
    db.close();
    expect(kept).toBe(2.5);

    const csv = await exportCsv('email-submissions', 'subject,from');
    const cell = csv.find((r) => r[0]!.startsWith('Invoice'))!;
    expect(cell[0]!.length).toBeLessThanOrEqual(32_767);
    // One row a submission: the line breaks are LF inside a quoted cell, the controls and bidi gone.
    expect(csv).toHaveLength(rows.length + 1);
    expect(cell[0]).toMatch(/^Invoice\nBcc: all@example\.com fdp\.exes+/);
    expect(cell[1]).toBe('bad\nsender@example.com');
    await syncsAgain();
  });

  it('webhooks: event lists that are not lists of names, notifications that are not objects, repeated or 1 MB', async () => {
    rewrite = (request, answer) => {
      const doc = answer.json as Doc;
      if (pathOf(request) !== '/v2/webhooks' || !doc?.data?.length) return undefined;
      doc.data[0].attributes.events = 'every event';
      doc.data[0].attributes.url = 'javascript:alert(1)';
      if (doc.data[1]) doc.data[1].attributes.events = [1, { a: 2 }, 'container.transport.available'];
      return { status: 200, headers: answer.headers, body: doc };
    };
    const hooks = await value<WebhookRow[]>(core, 'webhooks:list');
    expect(hooks.map((h) => h.events)).toEqual(expect.arrayContaining([[], ['container.transport.available']]));
    expect(hooks.find((h) => h.events.length === 0)?.url).toBe('javascript:alert(1)');

    const before = await value<{ notifications: { id: string }[]; error: string | null }>(
      core,
      'webhooks:notifications',
    );
    expect(before.error).toBeNull();
    expect(before.notifications.length).toBeGreaterThan(0);
    rewrite = (request) =>
      pathOf(request) === '/v2/webhook_notifications'
        ? { status: 200, body: { data: ['not an object', 7] } }
        : undefined;
    const refused = await value<{ notifications: { id: string }[]; error: string | null }>(
      core,
      'webhooks:notifications',
    );
    expect(refused.error).toMatch(/^The Tracking API [^\n]+\.$/);
    expect(refused.notifications).toEqual(before.notifications);

    rewrite = (request, answer) => {
      const doc = answer.json as Doc;
      if (pathOf(request) !== '/v2/webhook_notifications' || !doc?.data?.length) return undefined;
      doc.data[0].attributes.payload = { body: 'p'.repeat(MB) };
      doc.data.push({ ...doc.data[0], attributes: { ...doc.data[0].attributes, event: 'container.updated' } });
      return { status: 200, headers: answer.headers, body: doc };
    };
    const repeated = await value<{ notifications: { id: string; event: string | null }[] }>(
      core,
      'webhooks:notifications',
    );
    const ids = repeated.notifications.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(before.notifications.map((n) => n.id));
    await syncsAgain();
  });
});

describe('the change feed from a hostile service', { timeout: 120_000 }, () => {
  const DAY = 86_400;
  const sandbox = useSandbox({
    seed: 'hostile-feed',
    shipments: 30,
    start: Date.parse('2026-05-11T08:00:00Z'),
    tick: 0,
    rateLimit: { limit: 100_000, windowSeconds: 60 },
  });
  let rewrite: Rewrite = () => undefined;
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url, rewrite: (q, a) => rewrite(q, a) }));
  beforeAll(async () => {
    // A webhook created without a list of events hears every event: the feed is used.
    const hook = await call(sandbox.get(), '/webhooks', {
      method: 'POST',
      body: { data: { type: 'webhook', attributes: { url: 'https://hooks.example.com/feed', active: true } } },
    });
    expect(hook.status).toBe(201);
  });

  it('a notifications page carrying 200,000 included records is read, and the run ends ok', async () => {
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url, rateLimit: { limit: 100_000, windowSeconds: 60 } });
    try {
      expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
      expect((await sync.engine.run({ mode: 'incremental' })).status).toBe('ok');
      sandbox.get().advance(DAY / 24);
      rewrite = (request, answer) => {
        const doc = answer.json as Doc;
        if (pathOf(request) !== '/v2/webhook_notifications' || !doc?.data) return undefined;
        const filler = Array.from({ length: 200_000 }, (_, i) => ({ type: 'filler', id: `f${i}` }));
        doc.included = [...(doc.included ?? []), ...filler];
        return { status: 200, headers: answer.headers, body: doc };
      };
      expect(await sync.engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok', error: null });
      // The feed was read, the included records with it.
      expect(readState<{ reason: string }>(sync.db, FEED_LAST_KEY)?.reason).toBe('feed');
    } finally {
      sync.close();
    }
  });
});

describe('settings.json and profiles.json that are not what they should be', () => {
  /** A data folder whose `name` is made by `make`, and a core started on it. */
  function startOn(name: 'settings.json' | 'profiles.json', make: (file: string) => void) {
    const dataDir = tempDir();
    make(join(dataDir, name));
    const made = testCore({ dataDir, fetch: () => Promise.reject(new TypeError('offline')) });
    return { ...made, file: join(dataDir, name) };
  }
  const aside = (dataDir: string, name: string) =>
    readdirSync(dataDir).filter((f) => f.startsWith(`${name}.unreadable-`));

  const cases: [string, (file: string) => void, RegExp][] = [
    [
      'a pipe no one writes to',
      (file) => expect(spawnSync('mkfifo', [file]).status).toBe(0),
      /it is a pipe, not a file/,
    ],
    ['a link to /dev/zero', (file) => symlinkSync('/dev/zero', file), /it is a device, not a file/],
    ['a sparse 2 GB file', (file) => (writeFileSync(file, '{'), truncateSync(file, 2 * 1024 ** 3)), /larger than 4 MB/],
    ['a folder', (file) => mkdirSync(file), /it is a folder, not a file/],
    ['JSON nested a million deep', (file) => writeFileSync(file, nested(1_000_000)), /does not hold an object/],
  ];

  it.skipIf(process.platform === 'win32').each(cases)(
    'profiles.json as %s: the app starts with one sentence, and a new profile keeps the old one aside',
    async (_what, make, reason) => {
      const { core, dataDir, file } = startOn('profiles.json', make);
      try {
        const state = await value<ProfilesState>(core, 'profiles:list');
        expect(state.profiles).toEqual([]);
        expect(state.fileProblem).toMatch(
          /^profiles\.json could not be read \(.+\), so Quayside started with no profiles\./,
        );
        expect(state.fileProblem).toMatch(reason);
        const kind = lstatSync(file);
        await value(core, 'profiles:add', {
          name: 'Desk',
          baseUrl: 'https://api.terminal49.com/v2',
          apiKey: 'k'.repeat(32),
        });
        // The odd file is kept, renamed, whatever it was; a fresh one holds the new profile.
        const [kept] = aside(dataDir, 'profiles.json');
        expect(lstatSync(join(dataDir, kept!)).mode).toBe(kind.mode);
        expect(JSON.parse(readFileSync(file, 'utf8')).profiles).toHaveLength(1);
      } finally {
        await core.close();
      }
    },
  );

  it.skipIf(process.platform === 'win32')(
    'settings.json as a pipe or /dev/zero: defaults, and a change keeps it aside',
    async () => {
      for (const make of [cases[0]![1], cases[1]![1]]) {
        const { core, dataDir, file } = startOn('settings.json', make);
        try {
          expect(await value<Settings>(core, 'settings:get')).toMatchObject({
            theme: 'system',
            syncIntervalMinutes: 15,
          });
          await value(core, 'settings:update', { theme: 'dark' });
          expect(aside(dataDir, 'settings.json')).toHaveLength(1);
          expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ theme: 'dark' });
        } finally {
          await core.close();
        }
      }
    },
  );

  it('a file one byte over the limit is refused; __proto__ members change nothing and pollute nothing', async () => {
    const over = startOn('profiles.json', (file) =>
      writeFileSync(file, `{"version":1,"pad":"${'p'.repeat(VERSIONED_FILE_MAX_BYTES)}"}`),
    );
    try {
      expect((await value<ProfilesState>(over.core, 'profiles:list')).fileProblem).toMatch(/larger than 4 MB/);
    } finally {
      await over.core.close();
    }
    const polluted = startOn('settings.json', (file) =>
      writeFileSync(file, '{"version":5,"theme":"dark","__proto__":{"theme":"light","polluted":true}}'),
    );
    try {
      const settings = await value<Settings>(polluted.core, 'settings:get');
      // Refused as a shape settings.json never has: defaults, the file kept to be set aside.
      expect(settings.theme).toBe('system');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(existsSync(polluted.file)).toBe(true);
    } finally {
      await polluted.core.close();
    }
  });
});
