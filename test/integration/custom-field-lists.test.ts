/**
 * Each custom field is a column the lists sort and filter by, through the IPC
 * contract as the app calls it: pages sorted by `cf.<api_slug>` walked cursor by cursor (typed:
 * numbers and dates by value; empty values last either way round), every kind of filter with its
 * count, and exports (the app's and the CLI's, `--cf`) in the order the list shows. What is
 * expected is read from the sandbox, not from the local copy.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/exit-codes';
import { runCli } from '../../src/cli/index';
import type { DemoService } from '../../src/core/core';
import type { Sandbox } from '../../src/sandbox/index';
import type { CustomFieldDefinitionInfo } from '../../src/shared/custom-fields';
import type { ContainerRow, ShipmentRow, TrackingRequestRow } from '../../src/shared/rows';
import type { Page } from '../../src/shared/views';
import { capture } from '../helpers/capture';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

type Entity = 'shipment' | 'container' | 'tracking_request';
type Row = { id: string; customFields: Partial<Record<string, { value: unknown; text: string | null }>> };
type Sortable = string | number;

let sandbox: Sandbox;
const demo: DemoService = {
  async start() {
    sandbox = await startTestSandbox({ seed: 'cf-lists', shipments: 60, apiKeys: [randomUUID()] });
    const started = sandbox;
    return { url: started.url, apiKey: started.apiKeys[0]!, close: () => started.close() };
  },
};
const exportDir = tempDir();
const { core, dataDir } = testCore({ demo, chooseExportPath: (name) => Promise.resolve(join(exportDir, name)) });

beforeAll(async () => {
  expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
}, 120_000);
afterAll(() => core.close());

/** Each record of a type that exists now, by id, with its value of one field (null when unset). */
function sandboxValues(type: Entity, slug: string): Map<string, { value: unknown; text: string | null } | null> {
  const now = sandbox.clock.now();
  const store = sandbox.store;
  const records =
    type === 'shipment' ? store.shipments : type === 'container' ? store.containers : store.trackingRequests;
  const values = new Map<string, { value: unknown; text: string | null } | null>();
  for (const rec of records) {
    if (rec.createdAt > now) continue;
    const entity = { type, rec } as Parameters<typeof store.customFields.valuesOf>[0];
    const held = store.customFields.valuesOf(entity).find((v) => v.definition.apiSlug === slug);
    values.set(rec.id, held ? { value: held.value, text: store.customFields.displayValue(held) } : null);
  }
  return values;
}

const tables: Record<Entity, string> = {
  shipment: 'shipments',
  container: 'containers',
  tracking_request: 'tracking_requests',
};

/**
 * How the list orders records it cannot tell apart, read from the local copy: those with the same
 * value by their id's key in `interned` (as the values' index ends), the rest by their rowid.
 */
function tiesOf(type: Entity): Map<string, { key: number; rowid: number }> {
  const db = new Database(join(dataDir, 'demo', 'demo.sqlite'), { readonly: true });
  try {
    const rows = db
      .prepare<[], { id: string; key: number | null; rowid: number }>(
        `SELECT t.id, t.rowid AS rowid, i.key FROM ${tables[type]} t LEFT JOIN interned i ON i.text = t.id`,
      )
      .all();
    return new Map(rows.map((r) => [r.id, { key: r.key ?? -1, rowid: r.rowid }]));
  } finally {
    db.close();
  }
}

/**
 * The ids in list order: values by value (ties by their record's key), then the records without
 * one in the order they were stored, each way round.
 */
function expectedOrder(type: Entity, values: Map<string, Sortable | null>, direction: 'asc' | 'desc'): string[] {
  const ties = tiesOf(type);
  const tie = (id: string) => ties.get(id) ?? { key: -1, rowid: -1 };
  const sign = direction === 'asc' ? 1 : -1;
  const cmp = (a: Sortable, b: Sortable) => (a < b ? -1 : a > b ? 1 : 0);
  const withValue = [...values].filter((e): e is [string, Sortable] => e[1] !== null);
  const without = [...values].filter(([, v]) => v === null).map(([id]) => id);
  withValue.sort(([ia, a], [ib, b]) => sign * (cmp(a, b) || tie(ia).key - tie(ib).key));
  without.sort((a, b) => sign * (tie(a).rowid - tie(b).rowid));
  return [...withValue.map(([id]) => id), ...without];
}

/** Every row of a list, page by page (small pages, so the cursor crosses both phases). */
async function walk<R>(list: string, arg: { filters?: object; sort?: object }, limit = 7): Promise<R[]> {
  const rows: R[] = [];
  let after: string | undefined;
  for (let i = 0; i < 200; i++) {
    const page = await value<Page<R>>(core, `${list}:list` as 'shipments:list', {
      ...arg,
      page: after ? { limit, after } : { limit },
    });
    rows.push(...page.rows);
    if (page.next === null) return rows;
    after = page.next;
  }
  throw new Error('the list did not end');
}

describe('a list sorted by a custom field', { timeout: 60_000 }, () => {
  it('walks the shipments by PO number either way round, empty ones last, each row with its values', async () => {
    const truth = sandboxValues('shipment', 'po_number');
    const texts = new Map([...truth].map(([id, v]) => [id, v?.text ?? null]));
    expect([...texts.values()].filter((t) => t === null).length).toBeGreaterThan(2);
    for (const direction of ['asc', 'desc'] as const) {
      const rows = await walk<ShipmentRow>('shipments', { sort: { field: 'cf.po_number', direction } });
      expect(rows.map((r) => r.id)).toEqual(expectedOrder('shipment', texts, direction));
      for (const row of rows) expect(row.customFields.po_number?.text ?? null).toBe(texts.get(row.id));
    }
  });

  it('sorts numbers and dates by value, and yes/no with no first', async () => {
    const pallets = new Map(
      [...sandboxValues('container', 'pallet_count')].map(([id, v]) => [id, v === null ? null : (v.value as number)]),
    );
    // Text order would put 10 before 4: the values span both.
    expect([...pallets.values()].some((n) => n !== null && n < 10)).toBe(true);
    expect([...pallets.values()].some((n) => n !== null && n >= 10)).toBe(true);
    const byPallets = await walk<ContainerRow>('containers', { sort: { field: 'cf.pallet_count', direction: 'asc' } });
    expect(byPallets.map((r) => r.id)).toEqual(expectedOrder('container', pallets, 'asc'));
    expect(byPallets[0]!.customFields.pallet_count?.value).toBe(
      Math.min(...[...pallets.values()].filter((n) => n !== null)),
    );

    const ready = new Map(
      [...sandboxValues('shipment', 'cargo_ready_date')].map(([id, v]) => [
        id,
        v === null ? null : (v.value as string),
      ]),
    );
    const byReady = await walk<ShipmentRow>('shipments', { sort: { field: 'cf.cargo_ready_date', direction: 'desc' } });
    expect(byReady.map((r) => r.id)).toEqual(expectedOrder('shipment', ready, 'desc'));

    const cold = new Map(
      [...sandboxValues('container', 'temperature_controlled')].map(([id, v]) => [
        id,
        v === null ? null : v.value === true ? 1 : 0,
      ]),
    );
    const byCold = await walk<ContainerRow>('containers', {
      sort: { field: 'cf.temperature_controlled', direction: 'asc' },
    });
    expect(byCold.map((r) => r.id)).toEqual(expectedOrder('container', cold, 'asc'));
    expect(byCold[0]!.customFields.temperature_controlled).toEqual({ value: false, text: 'No' });

    const centres = new Map(
      [...sandboxValues('tracking_request', 'cost_centre')].map(([id, v]) => [id, v?.text ?? null]),
    );
    const requests = await walk<TrackingRequestRow>('trackingRequests', {
      sort: { field: 'cf.cost_centre', direction: 'asc' },
    });
    expect(requests.map((r) => r.id)).toEqual(expectedOrder('tracking_request', centres, 'asc'));
  });

  it('sorts a filtered list by a custom field, and a field no record has lists them as stored', async () => {
    const filters = { customFields: { incoterm: { kind: 'options', values: ['FOB', 'CIF'] } } };
    const incoterms = sandboxValues('shipment', 'incoterm');
    const po = new Map(
      [...sandboxValues('shipment', 'po_number')]
        .filter(([id]) => ['FOB', 'CIF'].includes(String(incoterms.get(id)?.value)))
        .map(([id, v]) => [id, v?.text ?? null]),
    );
    expect(po.size).toBeGreaterThan(3);
    const rows = await walk<ShipmentRow>(
      'shipments',
      { filters, sort: { field: 'cf.po_number', direction: 'desc' } },
      3,
    );
    expect(rows.map((r) => r.id)).toEqual(expectedOrder('shipment', po, 'desc'));

    const none = await walk<ShipmentRow>('shipments', { sort: { field: 'cf.not_defined', direction: 'asc' } }, 25);
    const stored = tiesOf('shipment');
    expect(none.map((r) => r.id)).toEqual(
      [...sandboxValues('shipment', 'po_number').keys()].sort((a, b) => stored.get(a)!.rowid - stored.get(b)!.rowid),
    );
  });
});

describe('a list filtered by custom fields', { timeout: 60_000 }, () => {
  /** Rows and count of a filter, against the ids the sandbox says match. */
  async function expectFilter(list: string, filters: object, matches: (id: string) => boolean, type: Entity) {
    const all = [...sandboxValues(type, 'no_such_field').keys()];
    const expected = all.filter(matches).sort();
    expect(expected.length, 'the filter keeps some rows').toBeGreaterThan(0);
    expect(expected.length, 'and drops some').toBeLessThan(all.length);
    const rows = await walk<Row>(list, { filters }, 50);
    expect(rows.map((r) => r.id).sort()).toEqual(expected);
    expect(await value(core, `${list}:count` as 'shipments:count', { filters })).toBe(expected.length);
    expect(await value(core, `${list}:count` as 'shipments:count', { filters: {} })).toBe(all.length);
    return rows;
  }

  it('keeps the options picked, the text contained, a range of numbers or days, and yes or no', async () => {
    const incoterms = sandboxValues('shipment', 'incoterm');
    await expectFilter(
      'shipments',
      { customFields: { incoterm: { kind: 'options', values: ['FOB', 'DDP'] } } },
      (id) => ['FOB', 'DDP'].includes(String(incoterms.get(id)?.value)),
      'shipment',
    );

    const po = sandboxValues('shipment', 'po_number');
    const part = String([...po.values()].find((v) => v !== null)!.text).slice(3, 5);
    await expectFilter(
      'shipments',
      { customFields: { po_number: { kind: 'text', contains: part.toLowerCase() } } },
      (id) => po.get(id)?.text?.toLowerCase().includes(part.toLowerCase()) === true,
      'shipment',
    );

    const brokers = sandboxValues('shipment', 'customs_broker');
    // Both at once: each filter narrows the other.
    await expectFilter(
      'shipments',
      {
        customFields: {
          incoterm: { kind: 'options', values: ['FOB', 'DDP', 'CIF'] },
          customs_broker: { kind: 'text', contains: 'customs' },
        },
      },
      (id) =>
        ['FOB', 'DDP', 'CIF'].includes(String(incoterms.get(id)?.value)) &&
        brokers.get(id)?.text?.toLowerCase().includes('customs') === true,
      'shipment',
    );

    const pallets = sandboxValues('container', 'pallet_count');
    const inRange = (id: string) => {
      const n = pallets.get(id)?.value;
      return typeof n === 'number' && n >= 8 && n <= 20;
    };
    await expectFilter(
      'containers',
      { customFields: { pallet_count: { kind: 'number', min: 8, max: 20 } } },
      inRange,
      'container',
    );
    await expectFilter(
      'containers',
      { customFields: { pallet_count: { kind: 'number', min: 25 } } },
      (id) => Number(pallets.get(id)?.value ?? -1) >= 25,
      'container',
    );

    const ready = sandboxValues('shipment', 'cargo_ready_date');
    const days = [...ready.values()]
      .filter((v) => v !== null)
      .map((v) => String(v.value))
      .sort();
    const [from, to] = [days[Math.floor(days.length / 4)]!, days[Math.floor((days.length * 3) / 4)]!];
    await expectFilter(
      'shipments',
      { customFields: { cargo_ready_date: { kind: 'date', from, to } } },
      (id) => {
        const day = ready.get(id)?.value;
        return typeof day === 'string' && day >= from && day <= to;
      },
      'shipment',
    );

    const cold = sandboxValues('container', 'temperature_controlled');
    for (const is of [true, false]) {
      const rows = await expectFilter(
        'containers',
        { customFields: { temperature_controlled: { kind: 'flag', is } } },
        (id) => cold.get(id)?.value === is,
        'container',
      );
      for (const row of rows) expect(row.customFields.temperature_controlled?.value).toBe(is);
    }

    const centres = sandboxValues('tracking_request', 'cost_centre');
    await expectFilter(
      'trackingRequests',
      { customFields: { cost_centre: { kind: 'text', contains: 'retail' } } },
      (id) => centres.get(id)?.text?.toLowerCase().includes('retail') === true,
      'tracking_request',
    );
  });

  it('matches nothing for a field no record has, and refuses a malformed filter or sort before it runs', async () => {
    expect(
      await value(core, 'shipments:count', {
        filters: { customFields: { not_defined: { kind: 'text', contains: 'PO' } } },
      }),
    ).toBe(0);
    const refused = [
      ['shipments:count', { filters: { customFields: { po_number: { kind: 'number', min: 5, max: 1 } } } }],
      ['shipments:count', { filters: { customFields: { po_number: { kind: 'options', values: [] } } } }],
      ['shipments:count', { filters: { customFields: { 'po number': { kind: 'text', contains: 'x' } } } }],
      ['shipments:count', { filters: { customFields: { po_number: { kind: 'date', from: '2026-02-30' } } } }],
      ['shipments:list', { sort: { field: 'cf.', direction: 'asc' } }],
      ['shipments:list', { sort: { field: 'cf.po_number', direction: 'up' } }],
      ['emailSubmissions:count', { filters: { customFields: { po_number: { kind: 'text', contains: 'x' } } } }],
      ['emailSubmissions:list', { sort: { field: 'cf.po_number', direction: 'asc' } }],
    ] as const;
    for (const [channel, arg] of refused) {
      expect((await failure(core, channel, arg)).code, JSON.stringify(arg)).toBe('invalid_argument');
    }
  });

  it('offers each record type’s fields, pick lists with their options and how many records hold each', async () => {
    const shipments = await value<CustomFieldDefinitionInfo[]>(core, 'customFields:definitions', {
      entityType: 'shipment',
    });
    expect(shipments.map((d) => [d.name, d.dataType])).toEqual([
      ['Cargo ready date', 'date'],
      ['Customs broker', 'short_text'],
      ['Incoterm', 'enum'],
      ['PO number', 'short_text'],
    ]);
    const incoterm = shipments.find((d) => d.apiSlug === 'incoterm')!;
    const held = [...sandboxValues('shipment', 'incoterm').values()].filter((v) => v !== null);
    expect(incoterm.options.map((o) => o.value)).toEqual(['EXW', 'FCA', 'FOB', 'CFR', 'CIF', 'DAP', 'DDP']);
    for (const option of incoterm.options) {
      expect(option.count, option.value).toBe(held.filter((v) => v.value === option.value).length);
    }
    expect(incoterm.options.find((o) => o.value === 'FOB')?.label).toBe('FOB (Free on board)');
    const containers = await value<CustomFieldDefinitionInfo[]>(core, 'customFields:definitions', {
      entityType: 'container',
    });
    expect(containers.map((d) => d.apiSlug)).toEqual(['delivery_address', 'pallet_count', 'temperature_controlled']);
    expect((await failure(core, 'customFields:definitions', { entityType: 'email' })).code).toBe('invalid_argument');
  });
});

describe('an export of a list sorted and filtered by a custom field', { timeout: 60_000 }, () => {
  const filters = { customFields: { incoterm: { kind: 'options', values: ['FOB', 'CIF'] } } };
  const sort = { field: 'cf.po_number', direction: 'desc' };

  it('holds the rows the list shows, in its order, from the app and from the CLI (--cf)', async () => {
    const shown = await walk<ShipmentRow>('shipments', { filters, sort }, 10);
    const columns = ['bill_of_lading_number', 'cf.po_number', 'cf.incoterm'];
    const result = await value<{ path: string; rows: number }>(core, 'export:list', {
      view: 'shipments',
      filters,
      sort,
      columns,
    });
    const csv: string[][] = parse(readFileSync(result.path, 'utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(csv[0]).toEqual(['Bill of lading', 'PO number', 'Incoterm']);
    const expected = shown.map((r) => [
      r.billOfLading ?? '',
      r.customFields.po_number?.text ?? '',
      r.customFields.incoterm?.text ?? '',
    ]);
    expect(csv.slice(1)).toEqual(expected);

    const dbPath = join(dataDir, 'demo', 'demo.sqlite');
    const out = join(tempDir(), 'cli.csv');
    const err = capture();
    const code = await runCli(
      [
        'export',
        'shipments',
        '--db',
        dbPath,
        '--out',
        out,
        '--cf',
        'incoterm=fob',
        '--cf',
        'incoterm=CIF (Cost, insurance and freight)',
        '--sort',
        'cf.po_number:desc',
        '--columns',
        'number,cf.po_number,cf.incoterm',
      ],
      { out: capture().stream, err: err.stream },
    );
    expect(err.text()).toBe('');
    expect(code).toBe(exitCodes.ok);
    const fromCli: string[][] = parse(readFileSync(out, 'utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(fromCli.slice(1)).toEqual(expected);

    const ranged = join(tempDir(), 'ranged.csv');
    expect(
      await runCli(
        [
          'export',
          'containers',
          '--db',
          dbPath,
          '--out',
          ranged,
          '--cf',
          'pallet_count=8..20',
          '--cf',
          'temperature_controlled=no',
          '--columns',
          'number',
        ],
        { out: capture().stream, err: capture().stream },
      ),
    ).toBe(exitCodes.ok);
    const boxes = (
      await walk<ContainerRow>(
        'containers',
        {
          filters: {
            customFields: {
              pallet_count: { kind: 'number', min: 8, max: 20 },
              temperature_controlled: { kind: 'flag', is: false },
            },
          },
        },
        100,
      )
    ).map((r) => r.number);
    const rangedRows: string[][] = parse(readFileSync(ranged, 'utf8'), { bom: true, record_delimiter: '\r\n' });
    expect(
      rangedRows
        .slice(1)
        .map(([n]) => n)
        .sort(),
    ).toEqual(boxes.sort());
    expect(boxes.length).toBeGreaterThan(0);
  });

  it('says which field or value the CLI cannot take, and exports nothing', async () => {
    const dbPath = join(dataDir, 'demo', 'demo.sqlite');
    const cases: [string[], number, string][] = [
      [['--cf', 'no_such=1'], exitCodes.validation, 'no custom field “no_such”'],
      [['--cf', 'incoterm=XYZ'], exitCodes.validation, 'one of EXW, FCA, FOB'],
      [['--cf', 'cargo_ready_date=tomorrow'], exitCodes.validation, 'takes a day (YYYY-MM-DD)'],
      [['--cf', 'po_number'], exitCodes.usage, 'FIELD=VALUE'],
    ];
    for (const [flags, exit, said] of cases) {
      const err = capture();
      const out = join(tempDir(), 'nothing.csv');
      const code = await runCli(['export', 'shipments', '--db', dbPath, '--out', out, ...flags], {
        out: capture().stream,
        err: err.stream,
      });
      expect(code, flags.join(' ')).toBe(exit);
      expect(err.text()).toContain(said);
      expect(() => readFileSync(out)).toThrow();
    }
    const pallets = capture();
    expect(
      await runCli(
        ['export', 'containers', '--db', dbPath, '--out', join(tempDir(), 'x.csv'), '--cf', 'pallet_count=many'],
        {
          out: capture().stream,
          err: pallets.stream,
        },
      ),
    ).toBe(exitCodes.validation);
    expect(pallets.text()).toContain('Pallet count (--cf pallet_count) takes a number');
    const emails = capture();
    expect(
      await runCli(['export', 'email-submissions', '--db', dbPath, '--out', join(tempDir(), 'y.csv'), '--cf', 'a=b'], {
        out: capture().stream,
        err: emails.stream,
      }),
    ).toBe(exitCodes.usage);
  });
});
