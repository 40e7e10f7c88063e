/**
 * An export from the app is made by a worker thread of its own
 * (`exportViewAside`), so the window's loop only relays its progress. The file a forwarder gets,
 * and every refusal they can meet, must be exactly what the export made in place gives.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { QuaysideError } from '../../src/core/errors';
import { exportViewAside, startExportAside, type ExportAsideOptions } from '../../src/core/export/export-aside';
import { exportView, type ExportViewOptions } from '../../src/core/export/export-view';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

describe('a list exported by a worker thread', { timeout: 120_000 }, () => {
  const sandbox = useSandbox({ seed: 'export-aside', shipments: 80, tick: 0 });
  let sync: ReturnType<typeof syncOf>;
  const now = Date.parse('2026-11-26T12:00:00Z');

  beforeAll(async () => {
    sync = syncOf(sandbox.get());
    const run = await sync.engine.run({ mode: 'full' });
    expect(run.status).toBe('ok');
    return () => sync.close();
  });

  /** The same export both ways; answers both files' text and the rows the worker reported. */
  async function bothWays(
    options: Omit<ExportViewOptions, 'signal' | 'onProgress' | 'part'>,
    name: string,
    asideOptions: ExportAsideOptions = {},
  ) {
    const dir = tempDir();
    const progress: number[] = [];
    const logged: string[] = [];
    const aside = await exportViewAside(
      sync.db,
      join(dir, `aside-${name}`),
      { ...options, onProgress: (rows) => progress.push(rows) },
      { ...asideOptions, log: (line) => logged.push(line) },
    );
    // Made by the worker: nothing said it fell back to the core's own thread.
    expect(logged).toEqual([]);
    const inPlace = await exportView(sync.db, join(dir, `place-${name}`), options);
    return {
      dir,
      aside,
      inPlace,
      asideText: readFileSync(aside.path, 'utf8'),
      inPlaceText: readFileSync(inPlace.path, 'utf8'),
      progress,
    };
  }

  it('writes byte for byte the file the export in place writes, filters, sort and custom fields kept', async () => {
    const shipments = await bothWays(
      {
        view: 'shipments',
        filters: { customFields: { incoterm: { kind: 'options', values: ['FOB', 'CIF'] } } },
        sort: { field: 'cf.po_number', direction: 'desc' },
        columns: ['number', 'cf.po_number', 'cf.incoterm'],
        pickup: { now, staleHours: 24 },
      },
      'shipments.csv',
    );
    expect(shipments.aside.rows).toBeGreaterThan(5);
    expect(shipments.aside.rows).toBe(shipments.inPlace.rows);
    expect(shipments.asideText).toBe(shipments.inPlaceText);
    expect(shipments.asideText.split('\r\n')[0]).toContain('PO number');
    // The renderer's progress came through: the last figure is the whole export.
    expect(shipments.progress.at(-1)).toBe(shipments.aside.rows);

    const containers = await bothWays({ view: 'containers', pickup: { now, staleHours: 24 } }, 'containers.csv');
    expect(containers.asideText).toBe(containers.inPlaceText);
    expect(containers.aside.rows).toBe(containers.inPlace.rows);
    expect(containers.aside.rows).toBeGreaterThan(80);
    // The pickup columns answer for the same moment either way.
    expect(containers.asideText.split('\r\n')[0]).toContain('Ready for pickup');
  });

  it('makes a CSV in two halves, one worker each, from one snapshot: joined, byte for byte the file in place', async () => {
    for (const [view, sort] of [
      ['shipments', undefined],
      ['shipments', { field: 'eta', direction: 'asc' }],
      ['containers', { field: 'cf.pallet_count', direction: 'desc' }],
    ] as const) {
      const made = await bothWays({ view, sort, pickup: { now, staleHours: 24 } }, `${view}-halves.csv`, {
        splitFromRows: 1,
      });
      // Each worker wrote half the rows (the first the odd one), the first the header and BOM.
      const [first, second] = made.aside.parts!;
      expect(first! + second!).toBe(made.inPlace.rows);
      expect(first! - second!).toBeGreaterThanOrEqual(0);
      expect(first! - second!).toBeLessThanOrEqual(1);
      expect(second).toBeGreaterThan(20);
      expect(made.asideText).toBe(made.inPlaceText);
      expect(made.aside.bytes).toBe(Buffer.byteLength(made.inPlaceText));
      expect(made.progress.at(-1)).toBe(made.inPlace.rows);
      // The parts were joined and renamed: only the two files are in the folder.
      expect(readdirSync(made.dir).sort()).toEqual([`aside-${view}-halves.csv`, `place-${view}-halves.csv`]);
    }
    // Small exports stay whole: the second part is empty.
    const small = await bothWays({ view: 'shipments', pickup: { now, staleHours: 24 } }, 'small.csv');
    expect(small.aside.parts).toEqual([small.inPlace.rows, 0]);
    expect(small.asideText).toBe(small.inPlaceText);
  });

  it('refuses an unknown column, or a file it cannot write, in the same sentence as in place', async () => {
    const dir = tempDir();
    const refusal = async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (error) {
        expect(error).toBeInstanceOf(QuaysideError);
        return { code: (error as QuaysideError).code, message: (error as Error).message };
      }
      throw new Error('the export was not refused');
    };
    const unknownColumn = { view: 'shipments' as const, columns: ['number', 'colour'] };
    const aside = await refusal(() => exportViewAside(sync.db, join(dir, 'a.csv'), unknownColumn));
    expect(aside).toEqual(await refusal(() => exportView(sync.db, join(dir, 'b.csv'), unknownColumn)));
    expect(aside).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('colour') as string });

    const nowhere = join(dir, 'no-such-folder', 'out.csv');
    const unwritable = await refusal(() => exportViewAside(sync.db, nowhere, { view: 'containers' }));
    expect(unwritable).toEqual(await refusal(() => exportView(sync.db, nowhere, { view: 'containers' })));
  });

  it('starts its worker before the file is chosen; a cancelled dialog stops it and writes nothing', async () => {
    const dir = tempDir();
    const logged: string[] = [];
    // Started as the save dialog opens: it loads and waits, writing nothing until told where.
    const early = startExportAside(sync.db, { log: (line) => logged.push(line) });
    await early.ready;
    expect(readdirSync(dir)).toEqual([]);
    const result = await early.run(join(dir, 'later.csv'), { view: 'containers', pickup: { now, staleHours: 24 } });
    const inPlace = await exportView(sync.db, join(dir, 'place.csv'), {
      view: 'containers',
      pickup: { now, staleHours: 24 },
    });
    expect(readFileSync(result.path, 'utf8')).toBe(readFileSync(inPlace.path, 'utf8'));
    expect(result.rows).toBeGreaterThan(80);
    expect(logged).toEqual([]);
    // Done with its one export, the worker ends.
    expect(await early.ended).toMatch(/exit code/);

    const dropped = startExportAside(sync.db);
    await dropped.ready;
    dropped.cancel();
    expect(await dropped.ended).toMatch(/exit code/);
    expect(readdirSync(dir).sort()).toEqual(['later.csv', 'place.csv']);
  });
});
