import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { runImport, type ImportRowJson } from '../../src/cli/commands/import';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { openDatabase } from '../../src/core/store/database';
import { trackingRequestState } from '../../src/sandbox/state';
import { containerCheckDigit } from '../../src/shared/identifiers';
import { capture } from '../helpers/capture';
import { useSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const KEY = 'import-KEY-7f6e5d4c3b2a-CLI1';

/** A container number of this owner code that no one has tracked, with its right check digit. */
function container(owner: string, serial: number): string {
  const first10 = `${owner}${String(serial).padStart(6, '0')}`;
  return `${first10}${containerCheckDigit(first10)}`;
}

/** Counts the creates that reach the service (and lets a test act on each answer). */
function countingFetch(onCreate?: (status: number) => void) {
  const creates: string[] = [];
  const fetchThrough: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = String(input instanceof Request ? input.url : input);
    if (init?.method === 'POST' && /\/tracking_requests$/.test(url)) {
      creates.push(url);
      onCreate?.(response.status);
    }
    return response;
  };
  return { creates, fetch: fetchThrough };
}

async function run(
  args: string[],
  deps: { fetch?: typeof fetch; signal?: AbortSignal } = {},
): Promise<{ code: number; out: string; err: string; rows: ImportRowJson[] }> {
  const out = capture();
  const err = capture();
  process.env.T49_API_TOKEN = KEY;
  const code = await runImport(args, { out: out.stream, err: err.stream, signal: deps.signal }, { fetch: deps.fetch });
  const text = out.text();
  let rows: ImportRowJson[] = [];
  if (args.includes('--json') && text) rows = (JSON.parse(text) as { rows: ImportRowJson[] }).rows;
  return { code, out: text, err: err.text(), rows };
}

describe('npm run cli -- import', () => {
  const sandbox = useSandbox({ seed: 'cli-import', shipments: 30, apiKeys: [KEY] });
  afterEach(() => {
    delete process.env.T49_API_TOKEN;
  });

  it('creates the valid rows, says which were already tracked, failed or need a fix, in file order, and exits 6', async () => {
    const dir = tempDir();
    const db = join(dir, 'fresh.sqlite');
    const now = sandbox.get().clock.now();
    const tracked = sandbox
      .get()
      .store.trackingRequests.find(
        (r) => r.scac !== null && r.createdAt <= now && trackingRequestState(r, now).status === 'created',
      )!;
    const typeOf = { bill_of_lading: 'BL', booking_number: 'Booking', container: 'Container' } as const;
    const unsupported = sandbox.get().store.world.shippingLines.find((l) => !l.data.supported)!.data.scac;
    const fresh = container('MAEU', 900001);
    const inferred = container('MAEU', 900002);
    const file = join(dir, 'customer list.csv');
    writeFileSync(
      file,
      [
        'Container #,Type,SCAC,Ref,Tags',
        `${fresh},,MAEU,PO-1,hot`,
        `${tracked.requestNumber},${typeOf[tracked.requestType]},${tracked.scac},,`,
        'MSCU1234567,,MSCU,,',
        `${container('WHLU', 900003)},,${unsupported},,`,
        `${inferred},,,,`,
        `${fresh},,MAEU,,`,
      ].join('\r\n'),
    );
    const counted = countingFetch();
    const result = await run([file, '--db', db, '--base-url', sandbox.get().url, '--json'], { fetch: counted.fetch });
    expect(result.code).toBe(exitCodes.validation);
    expect(result.rows.map((r) => [r.row, r.number, r.status])).toEqual([
      [2, fresh, 'created'],
      [3, tracked.requestNumber, 'already_tracked'],
      [4, 'MSCU1234567', 'validation'],
      [5, container('WHLU', 900003), 'failed'],
      [6, inferred, 'created'],
      [7, fresh, 'validation'],
    ]);
    const [created, already, invalid, refused, guessed, repeated] = result.rows;
    expect(created).toMatchObject({ carrier: 'MAEU', number_type: 'container', message: null });
    expect(created!.tracking_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(already!.message).toMatch(/^Already tracked: /);
    expect(already!.tracking_request_id).toBeNull();
    expect(invalid!.message).toMatch(/check digit \(the last digit\) should be 6/);
    expect(refused!.message).toMatch(/^The Tracking API did not accept it: Scac '\w+' is not supported/);
    expect(guessed).toMatchObject({ carrier: 'MAEU' });
    expect(repeated!.message).toBe('Row 2 has the same number; this row is left out.');
    // Sent: the two created, the duplicate and the refused one; never the rows with a problem.
    expect(counted.creates).toHaveLength(4);
    const onService = sandbox.get().store.trackingRequests.filter((r) => r.requestNumber === fresh);
    expect(onService.map((r) => r.id)).toEqual([created!.tracking_request_id]);
    expect(onService[0]!.refNumbers).toEqual(['PO-1']);
    expect(onService[0]!.tags).toEqual(['hot']);
    // Written to the local copy at once.
    const store = openDatabase(db);
    const ids = store.prepare('SELECT id FROM tracking_requests WHERE synced_at IS NOT NULL').pluck().all();
    store.close();
    expect(ids).toEqual(expect.arrayContaining([created!.tracking_request_id, guessed!.tracking_request_id]));
  });

  it('sends nothing for a number the local copy already tracks, and exits 0 when every row is settled', async () => {
    const dir = tempDir();
    const db = join(dir, 'synced.sqlite');
    const out = capture();
    process.env.T49_API_TOKEN = KEY;
    expect(
      await runCli(['sync', '--db', db, '--base-url', sandbox.get().url, '--json'], {
        out: out.stream,
        err: capture().stream,
      }),
    ).toBe(exitCodes.ok);
    const store = openDatabase(db);
    const { number, scac } = store
      .prepare(
        'SELECT c.number, s.shipping_line_scac AS scac FROM containers c JOIN shipments s ON s.id = c.shipment_id WHERE s.tracking_stopped_at IS NULL AND c.synced_at IS NOT NULL LIMIT 1',
      )
      .get() as { number: string; scac: string };
    store.close();
    const workbook = join(dir, 'boxes.xlsx');
    const bytes = await writeExcelFile([
      [{ value: 'Cntr No.' }, { value: 'Line' }],
      [{ value: number }, { value: scac }],
      [{ value: container('MSCU', 900004) }, { value: 'MSCU' }],
    ]).toBuffer();
    writeFileSync(workbook, bytes);
    const counted = countingFetch();
    const result = await run([workbook, '--db', db, '--base-url', sandbox.get().url, '--json'], {
      fetch: counted.fetch,
    });
    expect(result.code).toBe(exitCodes.ok);
    expect(result.rows.map((r) => r.status)).toEqual(['already_tracked', 'created']);
    expect(result.rows[0]!.message).toMatch(/^Already tracked: this container is on shipment /);
    expect(counted.creates).toHaveLength(1);
  });

  it('stops sending when cancelled: what was sent has its result, the rest say they were not sent', async () => {
    const dir = tempDir();
    const numbers = Array.from({ length: 30 }, (_, i) => container('MSCU', 910000 + i));
    const file = join(dir, 'many.csv');
    writeFileSync(file, ['Container,SCAC', ...numbers.map((n) => `${n},MSCU`)].join('\n'));
    const controller = new AbortController();
    // Cancel as the second create is answered; the creates already on their way are seen through.
    let answered = 0;
    const counted = countingFetch(() => {
      if (++answered === 2) controller.abort();
    });
    const result = await run([file, '--db', join(dir, 'cancel.sqlite'), '--base-url', sandbox.get().url, '--json'], {
      fetch: counted.fetch,
      signal: controller.signal,
    });
    expect(result.code).toBe(exitCodes.cancelled);
    expect(result.rows).toHaveLength(30);
    const created = result.rows.filter((r) => r.status === 'created');
    const notSent = result.rows.filter((r) => r.status === 'failed');
    expect(created.length).toBeGreaterThanOrEqual(2);
    expect(created.length + notSent.length).toBe(30);
    expect(notSent.length).toBeGreaterThan(0);
    expect(notSent.every((r) => r.message === 'Not sent: the import was cancelled.')).toBe(true);
    // Nothing sent after the cancel but what was already on its way, and each has its answer.
    expect(counted.creates).toHaveLength(created.length);
    const onService = sandbox.get().store.trackingRequests.filter((r) => numbers.includes(r.requestNumber));
    expect(onService).toHaveLength(created.length);
  });

  it('says what is wrong with the command line or the file in one sentence', async () => {
    const dir = tempDir();
    const url = sandbox.get().url;
    await expect(run(['--db', join(dir, 'x.sqlite')])).rejects.toThrow(/import needs one file/);
    expect(
      await runCli(['import', '--db', join(dir, 'x.sqlite')], { out: capture().stream, err: capture().stream }),
    ).toBe(exitCodes.usage);
    await expect(run([join(dir, 'a.csv')])).rejects.toThrow(/import needs --db PATH or --profile NAME/);
    const missing = await run([join(dir, 'nope.csv'), '--db', join(dir, 'x.sqlite'), '--base-url', url]);
    expect(missing.code).toBe(exitCodes.failure);
    expect(missing.err).toBe(`There is no file ${join(dir, 'nope.csv')}.\n`);
    const empty = join(dir, 'empty.csv');
    writeFileSync(empty, ',,\n');
    const refused = await run([empty, '--db', join(dir, 'x.sqlite'), '--base-url', url, '--json']);
    expect(refused.code).toBe(exitCodes.validation);
    expect(JSON.parse(refused.out)).toEqual({
      rows: [],
      error: 'empty.csv holds no value: there is nothing to import.',
    });
    const noNumbers = join(dir, 'notes.csv');
    writeFileSync(noNumbers, 'Notes,Customer\ncall first,\n');
    const unmapped = await run([noNumbers, '--db', join(dir, 'x.sqlite'), '--base-url', url, '--json']);
    expect(unmapped.code).toBe(exitCodes.validation);
    expect(unmapped.rows).toEqual([
      {
        row: 2,
        number: '',
        number_type: null,
        carrier: null,
        status: 'validation',
        message: 'No column holds the numbers to track: name one Number, BL, Booking or Container.',
        tracking_request_id: null,
      },
    ]);
    expect(unmapped.err).toContain('No column holds the numbers to track: choose which one does.');
  });
});
