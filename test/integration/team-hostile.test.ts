/**
 * A laptop pulling from a team hub that is hostile or broken (a fake PostgreSQL speaking just
 * enough of the wire protocol, `helpers/fake-postgres.ts`, on 127.0.0.1): a row of hundreds of MB
 * or one that never ends is cut off by the bytes actually read for its page, in the clear and
 * over TLS; rows that are no record of their type, seqs that repeat, go back or never pass the
 * copy's, more rows than asked, odd values in quayside.meta and a server's error text full of
 * control characters each end the pull with one sentence, nothing of the bad page applied and the
 * pages before it kept, and the next pull from a mended hub goes on from there. A pull while the
 * database's sync lock is held, and a page whose store write fails midway, leave the copy as it was.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/core/store/database';
import { readRaw } from '../../src/core/store/queries/raw';
import { acquireSyncLock } from '../../src/core/sync/lock';
import { hubSourceOf, laptopHubAddress, pullFromHub, type PullSummary } from '../../src/core/team/puller';
import { MAX_PAGE_BYTES } from '../../src/core/team/wire-budget';
import {
  dataRowHeader,
  message,
  pump,
  rowDescription,
  startFakePostgres,
  type FakeAnswer,
  type FakePostgres,
  type FakeQuery,
} from '../helpers/fake-postgres';
import { tempDir } from '../helpers/temp-dir';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const shipment = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'shipment', id: uuid(n), attributes: { bill_of_lading_number: `BL${n}` }, ...extra });

interface Published {
  seq: string;
  kind?: string;
  type?: string;
  id: string;
  body: string | null;
}
const good = (n: number): Published => ({ seq: String(n), id: uuid(n), body: shipment(n) });

interface HubShape {
  rows: Published[];
  schemaVersion?: string | null;
  hubId?: string | null;
  maxSeq?: string | null;
  /** Answers a page query itself (the rows after `after`, at most `limit`, by default). */
  page?: (after: bigint, limit: number, query: FakeQuery) => FakeAnswer | null;
}

/** A fake hub serving `shape`; at most 50 page queries (a pull that never ends is cut there and fails). */
function hubAnswer(shape: HubShape) {
  let pages = 0;
  return (query: FakeQuery): FakeAnswer => {
    const text = query.text;
    if (text.includes('to_regclass')) return { columns: ['found'], rows: [['quayside.meta']] };
    if (text.includes('SELECT schema_version')) {
      return { columns: ['schema_version'], rows: [['schemaVersion' in shape ? shape.schemaVersion! : '1']] };
    }
    if (text.includes('pg_is_in_recovery')) {
      const max = shape.rows.length ? shape.rows[shape.rows.length - 1]!.seq : null;
      return {
        columns: ['hub', 'max', 'replica'],
        rows: [['hubId' in shape ? shape.hubId! : 'hub-1', 'maxSeq' in shape ? shape.maxSeq! : max, 'f']],
      };
    }
    if (text.includes('WHERE p.seq >')) {
      if (++pages > 50) return { error: 'the test hub answers no more than 50 pages' };
      const after = BigInt(query.params[0]!);
      const limit = Number(query.params[1]);
      const own = shape.page?.(after, limit, query);
      if (own) return own;
      return page(shape.rows.filter((r) => BigInt(r.seq) > after).slice(0, limit));
    }
    return { error: `the test hub does not know ${text.slice(0, 40)}` };
  };
}

let fake: FakePostgres | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function pull(db: Db, dbPath: string, url: string, pageRows = 1): Promise<PullSummary> {
  return pullFromHub({ db, dbPath, address: laptopHubAddress(url, undefined), pageRows });
}

function laptop(): { db: Db; path: string } {
  const path = join(tempDir(), 'laptop.sqlite');
  return { db: openDatabase(path), path };
}

const stored = (db: Db, n: number) => readRaw(db, 'shipment', uuid(n)).found === 'record';

/** The summary's message: one sentence on one line, naming the hub without a password. */
function sentence(summary: PullSummary): string {
  expect(summary.status).toBe('failed');
  const message = summary.error?.message ?? '';
  // eslint-disable-next-line no-control-regex
  expect(message).not.toMatch(/[\n\r\u001b]/);
  expect(message.length).toBeLessThan(600);
  return message;
}

describe('a laptop pulling from a hub that sends too much', () => {
  let tls: { key: string; cert: string };
  beforeAll(() => {
    const dir = tempDir();
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        '/CN=127.0.0.1',
        '-days',
        '1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  });

  it.each([
    { what: 'a row of 300 MB', total: 300 * 1024 * 1024, over: false },
    { what: 'a row that never ends', total: Infinity, over: false },
    { what: 'a row that never ends, over TLS', total: Infinity, over: true },
  ])('cuts off $what at the page budget of bytes read, keeping the pages before it', async ({ total, over }) => {
    // Never enough: the row declares more than it will ever send.
    const declared = total === Infinity ? 0x7fff0000 : total;
    fake = await startFakePostgres(
      hubAnswer({
        rows: [good(1), good(2)],
        page: (after) =>
          after < 1n
            ? null
            : {
                write: (socket) => {
                  socket.write(rowDescription(['seq', 'kind', 'type', 'id', 'body']));
                  socket.write(dataRowHeader(['2', 'record', 'shipment', uuid(2)], declared));
                  // Cut at 600 MB whatever happens, so a client that never stops cannot hold the test.
                  pump(socket, Math.min(declared, 600 * 1024 * 1024));
                },
              },
      }),
      over ? { tls } : {},
    );
    const { db, path } = laptop();
    const summary = await pull(db, path, fake.url(over ? '?sslmode=require' : ''));
    expect(sentence(summary)).toMatch(/^PostgreSQL at postgres:\/\/reader@127\.0\.0\.1:\d+\/hub sent more than 64 MB/);
    // What the client read is the budget and what the sockets on the way hold, not the row's size.
    expect(fake.bytesWritten()).toBeLessThan(MAX_PAGE_BYTES + 32 * 1024 * 1024);
    expect(stored(db, 1)).toBe(true);
    expect(hubSourceOf(db)?.lastSeq).toBe('1');
    db.close();
  });
});

describe('a laptop pulling from a hub that sends what no hub writes', () => {
  it('refuses a row whose cells overrun it in one sentence, the process unharmed', async () => {
    fake = await startFakePostgres(
      hubAnswer({
        rows: [good(1), good(2)],
        page: (after) =>
          after < 1n
            ? null
            : {
                write: (socket) => {
                  socket.write(rowDescription(['seq', 'kind', 'type', 'id', 'body']));
                  // Five cells announced in a row of seven bytes: the second one's length lies past its end.
                  const cells = Buffer.alloc(7);
                  cells.writeInt16BE(5, 0);
                  cells.writeInt32BE(1, 2);
                  cells.write('2', 6);
                  socket.write(message('D', cells));
                },
              },
      }),
    );
    const { db, path } = laptop();
    const summary = await pull(db, path, fake.url());
    expect(sentence(summary)).toMatch(/sent a message the PostgreSQL protocol does not allow/);
    expect(stored(db, 1)).toBe(true);
    expect(hubSourceOf(db)?.lastSeq).toBe('1');
    db.close();
  });

  const bodies: [string, string | null, Partial<Published>?][] = [
    ['text that is no JSON', '{"type":"shipment",'],
    ['JSON that is no object', '"shipment"'],
    ['attributes that are a list', shipment(3, { attributes: [1, 2] })],
    ['a relationship whose data is text', shipment(3, { relationships: { containers: { data: 'nope' } } })],
    [
      'a relationship pointing at a reference with no id',
      shipment(3, { relationships: { port_of_lading: { data: { type: 'port' } } } }),
    ],
    [
      'JSON nested deeper than the service ever nests',
      `{"type":"shipment","id":"${uuid(3)}","attributes":{"deep":${'['.repeat(5000)}${']'.repeat(5000)}}}`,
    ],
    ['a record of another type than its row', JSON.stringify({ type: 'container', id: uuid(3), attributes: {} })],
    ["another record's id", shipment(4)],
  ];
  it.each(bodies)(
    'refuses a page holding %s in one sentence, applies the pages before it, and goes on once mended',
    async (_what, body) => {
      const rows = [good(1), good(2), { seq: '3', id: uuid(3), body }];
      fake = await startFakePostgres(hubAnswer({ rows }));
      const { db, path } = laptop();
      const first = await pull(db, path, fake.url(), 2);
      expect(sentence(first)).toMatch(
        /^PostgreSQL at postgres:\/\/reader@127\.0\.0\.1:\d+\/hub sent a row \(seq 3\) that .+; nothing of its page was applied\.$/,
      );
      expect(stored(db, 1) && stored(db, 2)).toBe(true);
      expect(stored(db, 3)).toBe(false);
      expect(hubSourceOf(db)?.lastSeq).toBe('2');
      // The hub mended: the next pull takes the page from where the copy stopped.
      rows[2] = good(3);
      const second = await pull(db, path, fake.url(), 2);
      expect(second.error).toBeNull();
      expect(stored(db, 3)).toBe(true);
      expect(hubSourceOf(db)?.lastSeq).toBe('3');
      db.close();
    },
  );

  const seqs: [string, HubShape['page'], RegExp][] = [
    ['a seq repeated within a page', () => page([good(2), { ...good(3), seq: '2' }]), /seq 2 after seq 2/],
    ['seqs going backwards', () => page([good(3), good(2)]), /seq 2 after seq 3/],
    ['the page the copy already has, again and again', () => page([good(1), good(2)]), /seq 1 after seq 2/],
    ['a seq that is no number', () => page([{ ...good(3), seq: '3e0' }]), /a seq that is no whole number \("3e0"\)/],
    ['a negative seq', () => page([{ ...good(3), seq: '-3' }]), /a seq that is no whole number \("-3"\)/],
    ['more rows than asked', () => page([good(3), good(4), good(5)]), /3 rows for a page of at most 2/],
  ];
  it.each(seqs)('refuses %s in one sentence, the pages before it kept', async (_what, later, message) => {
    const rows = [good(1), good(2)];
    // The hub claims seqs up to 9, so the pull asks for the page after seq 2.
    fake = await startFakePostgres(
      hubAnswer({ rows, maxSeq: '9', page: (after, limit, q) => (after < 2n ? null : later!(after, limit, q)) }),
    );
    const { db, path } = laptop();
    const summary = await pull(db, path, fake.url(), 2);
    expect(sentence(summary)).toMatch(message);
    expect(sentence(summary)).toMatch(/nothing of its page was applied\.$/);
    expect(stored(db, 2)).toBe(true);
    expect(hubSourceOf(db)?.lastSeq).toBe('2');
    db.close();
  });

  const metas: [string, Partial<HubShape>, RegExp][] = [
    ['a negative schema version', { schemaVersion: '-3' }, /schema version \("-3"\) that no team hub writes/],
    [
      'a schema version that is no number',
      { schemaVersion: 'one' },
      /schema version \("one"\) that no team hub writes/,
    ],
    ['a newer schema', { schemaVersion: '99' }, /newer than this Quayside knows \(version 99/],
    ['a highest seq that is no number', { maxSeq: 'lots' }, /a highest seq that is no whole number \("lots"\)/],
    ['a hub id of 100 KB', { hubId: 'h'.repeat(100_000) }, /a hub id that no team hub writes/],
    ['a hub id of 2 MB', { hubId: 'h'.repeat(2_000_000) }, /sent more than 1 MB before its first page/],
  ];
  it.each(metas)('refuses a quayside.meta with %s in one sentence, writing nothing', async (_what, shape, message) => {
    fake = await startFakePostgres(hubAnswer({ rows: [good(1)], ...shape }));
    const { db, path } = laptop();
    const summary = await pull(db, path, fake.url());
    expect(sentence(summary)).toMatch(message);
    expect(stored(db, 1)).toBe(false);
    expect(hubSourceOf(db)).toBeNull();
    db.close();
  });

  it("says a server's error in one line, its control characters and its length cut", async () => {
    fake = await startFakePostgres(() => ({ error: `bad\u001b[2J\r\nthing ${'x'.repeat(100_000)}` }));
    const { db, path } = laptop();
    const summary = await pull(db, path, fake.url());
    expect(sentence(summary)).toMatch(
      /^PostgreSQL at postgres:\/\/reader@127\.0\.0\.1:\d+\/hub failed: bad thing x+…\.$/,
    );
    db.close();
  });

  it('never shows the password, even where the server says it back', async () => {
    fake = await startFakePostgres(() => ({ error: 'no role may log in with the password hunter2-secret' }));
    const { db, path } = laptop();
    const summary = await pullFromHub({ db, dbPath: path, address: laptopHubAddress(fake.url(), 'hunter2-secret') });
    expect(sentence(summary)).toMatch(/failed: no role may log in with the password …\.$/);
    db.close();
  });
});

/** A page query's answer holding `rows`. */
function page(rows: Published[]): FakeAnswer {
  return {
    columns: ['seq', 'kind', 'type', 'id', 'body'],
    rows: rows.map((r) => [r.seq, r.kind ?? 'record', r.type ?? 'shipment', r.id, r.body]),
  };
}

describe('a laptop pulling beside other writers of its copy', () => {
  it("says busy in one sentence while the database's sync lock is held (an API sync of the app), sending nothing", async () => {
    fake = await startFakePostgres(hubAnswer({ rows: [good(1)] }));
    const { db, path } = laptop();
    const held = acquireSyncLock(path);
    expect(held.ok).toBe(true);
    try {
      const summary = await pull(db, path, fake.url());
      expect(summary.error?.kind).toBe('busy');
      expect(sentence(summary)).toMatch(/another sync/i);
      expect(fake.queries).toEqual([]);
      expect(stored(db, 1)).toBe(false);
    } finally {
      if (held.ok) held.lock.release();
    }
    expect((await pull(db, path, fake.url())).error).toBeNull();
    expect(stored(db, 1)).toBe(true);
    db.close();
  });

  it('leaves none of a page whose store write fails midway (a full disk), the seq where it was', async () => {
    fake = await startFakePostgres(hubAnswer({ rows: [good(1), good(2), good(3), good(4)] }));
    const { db, path } = laptop();
    expect((await pull(db, path, fake.url(), 2)).error).toBeNull();
    await fake.close();
    const rows = [good(1), good(2), good(3), good(4)];
    for (let n = 5; n <= 200; n++) rows.push({ ...good(n), body: shipment(n, { meta: { filler: 'x'.repeat(4000) } }) });
    fake = await startFakePostgres(hubAnswer({ rows }));
    // The file may not grow: the page's records are written until SQLite finds no room.
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 8}`);
    const summary = await pull(db, path, fake.url(), 500);
    expect(summary.error?.kind).toBe('store');
    expect(sentence(summary)).toMatch(/disk is full/);
    expect(stored(db, 5)).toBe(false);
    expect(hubSourceOf(db)?.lastSeq).toBe('4');
    db.pragma('max_page_count = 1073741823');
    expect((await pull(db, path, fake.url(), 500)).error).toBeNull();
    expect(stored(db, 200)).toBe(true);
    db.close();
  });
});

describe('a hub address typed to lead the laptop elsewhere', () => {
  it.each(['/usr/bin', '/bin/sh', '/dev/zero'])(
    'says a unix socket folder of %s cannot be reached, running and reading nothing there',
    async (folder) => {
      const { db, path } = laptop();
      const summary = await pull(db, path, `postgres:///hub?host=${folder}`);
      expect(summary.error?.kind).toBe('network');
      expect(sentence(summary)).toMatch(
        /^PostgreSQL at postgres:\/\/localhost:5432\/hub\?host=\/\S+ could not be reached/,
      );
      db.close();
    },
  );

  it('refuses a connect_timeout past an hour in one sentence (a timer would wrap it to 1 ms), before reaching anything', () => {
    expect(() => laptopHubAddress('postgres://127.0.0.1/hub?connect_timeout=99999999999', undefined)).toThrow(
      /^The --hub address has a connect_timeout that is not a number of seconds from 0 to 3600 \("99999999999"\)\.$/,
    );
    expect(
      laptopHubAddress('postgres://127.0.0.1/hub?connect_timeout=90', undefined).config.connectionTimeoutMillis,
    ).toBe(90_000);
  });

  it("takes an empty host= as none: the URL's host, never PGHOST's", async () => {
    fake = await startFakePostgres(hubAnswer({ rows: [good(1)] }));
    const saved = process.env.PGHOST;
    process.env.PGHOST = '/nonexistent-quayside-socket-folder';
    try {
      const { db, path } = laptop();
      const summary = await pull(db, path, `postgres://127.0.0.1:${fake.port}/hub?host=`);
      expect(summary.error).toBeNull();
      expect(stored(db, 1)).toBe(true);
      db.close();
    } finally {
      if (saved === undefined) delete process.env.PGHOST;
      else process.env.PGHOST = saved;
    }
  });
});

describe('a laptop pulling from a hub whose pages never end', () => {
  it('stops at the highest seq the hub held when the pull began, the rest left to the next pull', async () => {
    // Every page full of new records at growing seqs, however far the pull goes.
    const endless: HubShape['page'] = (after, limit) =>
      page(Array.from({ length: limit }, (_, i) => good(Number(after) + i + 1)));
    fake = await startFakePostgres(hubAnswer({ rows: [], maxSeq: '4', page: endless }));
    const { db, path } = laptop();
    const summary = await pull(db, path, fake.url(), 2);
    expect(summary.error).toBeNull();
    expect(summary).toMatchObject({ status: 'ok', pages: 2, lastSeq: '4' });
    expect(stored(db, 4) && !stored(db, 5)).toBe(true);
    db.close();
  });
});

describe("a laptop keeping the hub's latest sync run", () => {
  it('keeps a status and times only as short as a sync log writes them', async () => {
    const run = (status: string) => JSON.stringify({ status, started_at: 'x'.repeat(100_000), finished_at: null });
    fake = await startFakePostgres(
      hubAnswer({
        rows: [
          good(1),
          { seq: '2', kind: 'sync_run', type: 'sync_run', id: '7', body: run('s'.repeat(100_000)) },
          { seq: '3', kind: 'sync_run', type: 'sync_run', id: '6', body: run('ok') },
        ],
      }),
    );
    const { db, path } = laptop();
    expect((await pull(db, path, fake.url(), 10)).error).toBeNull();
    expect(hubSourceOf(db)?.hubRun).toEqual({ id: 7, status: 'unknown', startedAt: null, finishedAt: null });
    db.close();
  });
});
