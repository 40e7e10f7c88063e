/**
 * Pins what the three list views give over one fixed demo database: the IPC answers (first
 * page, count, a row by id), the CSV export through `export:list` and the CLI's `export`
 * (header and first rows, human and API headers), so a change in how the lists are declared
 * (the registry's list parts) is proven not to change a byte. The sandbox starts at a fixed
 * instant with its clock stopped, so the data is the same on every run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import type { Channel } from '../../src/shared/ipc';
import { capture } from '../helpers/capture';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const start = Date.parse('2026-03-02T09:30:00Z');
const exportDir = tempDir();
let exported = 0;
const { core, dataDir } = testCore({
  demo: {
    async start() {
      // The reference's shape: the pins are of the views, not of how the service spells its lists.
      const sandbox = await startTestSandbox({ seed: 'list-pins', shipments: 30, start, tick: 0, shape: 'reference' });
      return { url: sandbox.url, apiKey: DEMO_API_KEY, close: () => sandbox.close() };
    },
  },
  chooseExportPath: (suggested) => Promise.resolve(join(exportDir, `${exported++}-${suggested.slice(0, 30)}`)),
});
let dbPath = '';

beforeAll(async () => {
  expect((await syncNow(core, 'full')).state).toBe('idle');
  dbPath = (await value<{ path: string }>(core, 'data:info')).path;
}, 60_000);
afterAll(() => core.close());

/** The header and first rows of a CSV file, as text (BOM and CRLF kept visible). */
function head(path: string, lines = 4): string {
  const text = readFileSync(path, 'utf8');
  return JSON.stringify(text.split('\r\n').slice(0, lines));
}

/** The answer with the sync's own times (when events were fetched) masked: they are the clock's. */
const masked = (answer: unknown): unknown =>
  JSON.parse(JSON.stringify(answer, (key, v: unknown) => (/syncedAt$/i.test(key) && v !== null ? '<sync time>' : v)));

const views = [
  { channel: 'shipments', view: 'shipments', sort: { field: 'eta', direction: 'asc' }, filters: { etaSlipped: true } },
  {
    channel: 'containers',
    view: 'containers',
    sort: { field: 'last_free_day', direction: 'desc' },
    filters: { statuses: ['available', 'discharged'] },
  },
  {
    channel: 'trackingRequests',
    view: 'tracking-requests',
    sort: { field: 'request_number', direction: 'asc' },
    filters: { statuses: ['failed', 'created'] },
  },
  {
    channel: 'emailSubmissions',
    view: 'email-submissions',
    sort: { field: 'subject', direction: 'asc' },
    filters: { hasDocuments: true },
  },
] as const;

describe('list views over a fixed demo database', () => {
  for (const v of views) {
    it(`${v.view}: list, count and get answer as pinned`, async () => {
      const list = (arg: unknown) =>
        value<{ rows: { id: string }[]; next: string | null }>(core, `${v.channel}:list` as Channel, arg);
      const first = await list({ page: { limit: 3 } });
      expect(first.rows.length).toBe(3);
      expect(first).toMatchSnapshot('default page');
      expect(await list({ filters: v.filters, sort: v.sort, page: { limit: 3, after: first.next } })).toMatchSnapshot(
        'filtered, sorted, after a cursor',
      );
      const sorted = await list({ filters: v.filters, sort: v.sort, page: { limit: 3 } });
      expect(sorted).toMatchSnapshot('filtered and sorted');
      expect(await value(core, `${v.channel}:count` as Channel, { filters: {} })).toMatchSnapshot('count');
      expect(await value(core, `${v.channel}:count` as Channel, { filters: v.filters })).toMatchSnapshot(
        'count filtered',
      );
      expect(masked(await value(core, `${v.channel}:get` as Channel, { id: first.rows[0]!.id }))).toMatchSnapshot(
        'get',
      );
      expect(await failure(core, `${v.channel}:get` as Channel, { id: 'no-such-row' })).toMatchSnapshot('get unknown');
    });

    it(`${v.view}: export:list writes the pinned header and first rows`, async () => {
      const human = await value<{ path: string; rows: number }>(core, 'export:list', { view: v.view });
      expect({ rows: human.rows, head: head(human.path) }).toMatchSnapshot('human');
      const keys = await value<{ path: string; rows: number }>(core, 'export:list', {
        view: v.view,
        filters: v.filters,
        sort: v.sort,
        headerStyle: 'keys',
      });
      expect({ rows: keys.rows, head: head(keys.path) }).toMatchSnapshot('keys, filtered and sorted');
    });

    it(`${v.view}: quayside export prints and writes as pinned`, async () => {
      const out = join(dataDir, `cli-${v.view}.csv`);
      const cli = async (args: string[]) => {
        const o = capture();
        const e = capture();
        const code = await runCli(args, { out: o.stream, err: e.stream });
        return { code, out: o.text().replace(out, '<out>'), err: e.text() };
      };
      const sortFlag = `${v.sort.field}:${v.sort.direction}`;
      expect(await cli(['export', v.view, '--db', dbPath, '--out', out, '--sort', sortFlag])).toMatchSnapshot('run');
      expect(head(out)).toMatchSnapshot('file');
      expect(
        await cli(['export', v.view, '--db', dbPath, '--out', out, '--carrier', 'MAEU', '--header-style', 'keys']),
      ).toMatchSnapshot('by carrier, keys: run');
      expect(head(out, 3)).toMatchSnapshot('by carrier, keys: file');
      expect(await cli(['export', v.view, '--db', dbPath, '--out', out, '--columns', 'tags,nope'])).toMatchSnapshot(
        'unknown column',
      );
      expect(await cli(['export', v.view, '--db', dbPath, '--out', out, '--pol', 'CNSHA'])).toMatchSnapshot(
        'port of lading',
      );
    });
  }

  it('quayside export names its views when given another, and in its usage', async () => {
    const run = async (args: string[]) => {
      const o = capture();
      const e = capture();
      const code = await runCli(args, { out: o.stream, err: e.stream });
      return { code, out: o.text(), err: e.text() };
    };
    expect(await run(['export', 'tracking_requests', '--db', dbPath, '--out', 'x.csv'])).toMatchSnapshot('wrong name');
    expect(await run(['export', '--db', dbPath, '--out', 'x.csv'])).toMatchSnapshot('no name');
    expect(await run(['help'])).toMatchSnapshot('help');
  });
});
