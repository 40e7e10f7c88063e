import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import ImportView from '../../src/renderer/src/views/ImportView.svelte';
import { importScreen } from '../../src/renderer/src/lib/import-state.svelte';
import {
  emptyImportCounts,
  MAX_IMPORT_BYTES,
  type ImportRow,
  type ImportState,
  type ImportTable,
} from '../../src/shared/imports';
import { Refusal, bridge } from './bridge';

const table: ImportTable = {
  id: 'imp-1',
  name: 'boxes.csv',
  sheet: null,
  rowCount: 4,
  columns: [
    { index: 0, letter: 'A', first: 'BL', samples: ['MAEU123456789'] },
    { index: 1, letter: 'B', first: 'Container #', samples: ['MSCU1234566'] },
    { index: 2, letter: 'C', first: 'Remarks', samples: ['call first'] },
    { index: 3, letter: 'D', first: 'SCAC', samples: ['MAEU'] },
  ],
  mapping: { hasHeader: true, fields: ['number', null, null, 'carrier'], numberType: 'bill_of_lading' },
  unsure: [
    '“Remarks” is not a column name Quayside knows; it is left out.',
    '“BL” and “Container #” could each be the number; Quayside took “BL”.',
  ],
};

function row(n: number, overrides: Partial<ImportRow> = {}): ImportRow {
  return {
    row: n,
    number: `MSCU${n}`,
    requestType: 'container',
    carrier: 'MSCU',
    carrierName: 'MSC',
    carrierInferred: false,
    refNumbers: [],
    tags: [],
    customer: null,
    customerId: null,
    status: 'ready',
    message: null,
    field: null,
    candidates: [],
    trackingRequestId: null,
    shipmentId: null,
    ...overrides,
  };
}

function state(rows: ImportRow[], overrides: Partial<ImportState> = {}): ImportState {
  const counts = emptyImportCounts();
  for (const r of rows) counts[r.status]++;
  return {
    id: 'imp-1',
    version: 0,
    name: 'boxes.csv',
    phase: 'preview',
    cancelled: false,
    stopped: null,
    rows,
    counts,
    progress: null,
    ...overrides,
  };
}

async function chooseFile(user: ReturnType<typeof userEvent.setup>) {
  render(ImportView);
  const input = document.getElementById('import-file') as HTMLInputElement;
  await user.upload(input, new File(['BL,Container #,Remarks,SCAC\n'], 'boxes.csv', { type: 'text/csv' }));
}

describe('the import screen', () => {
  beforeEach(() => importScreen.startOver());

  it('asks which column holds what when unsure, and refuses two number columns', async () => {
    bridge.answer('imports:read', () => table);
    const user = userEvent.setup();
    await chooseFile(user);

    await screen.findByRole('heading', { name: 'Which column holds what?' });
    const unsure = screen.getByRole('list', { name: 'What Quayside was unsure of' });
    expect(
      within(unsure)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(table.unsure);
    // The file went over as base64 with its name.
    expect(bridge.argsOf('imports:read')).toEqual([
      { name: 'boxes.csv', base64: btoa('BL,Container #,Remarks,SCAC\n') },
    ]);
    const container = screen.getByRole('combobox', { name: 'What B: Container # holds' });
    await user.selectOptions(container, 'number');
    expect(screen.getByRole('alert').textContent).toContain(
      'Only one column can be the number: A: BL and B: Container #.',
    );
    expect(screen.getByRole('button', { name: 'Check the rows' })).toHaveProperty('disabled', true);

    // The BL column left out, the box numbers are the ones to track.
    await user.selectOptions(screen.getByRole('combobox', { name: 'What A: BL holds' }), '');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Numbers are' }), 'container');
    bridge.answer('imports:preview', () => state([row(2)]));
    await user.click(screen.getByRole('button', { name: 'Check the rows' }));
    await screen.findByRole('heading', { name: 'Check before sending' });
    expect(bridge.argsOf('imports:preview')).toEqual([
      { id: 'imp-1', mapping: { hasHeader: true, fields: [null, 'number', null, 'carrier'], numberType: 'container' } },
    ]);
  });

  it('names the columns by letter when the first row holds values', async () => {
    bridge.answer('imports:read', () => table);
    const user = userEvent.setup();
    await chooseFile(user);
    await user.click(await screen.findByRole('checkbox', { name: 'The first row holds the column names' }));
    expect(screen.getByRole('combobox', { name: 'What Column A holds' })).toBeTruthy();
    // The first row's values are shown among the column's values.
    expect(screen.getByRole('row', { name: /Column B/ }).textContent).toContain('Container # · MSCU1234566');
  });

  it('shows each row’s problem, lets a carrier be picked among the service’s guesses, and follows progress', async () => {
    bridge.answer('imports:read', () => ({ ...table, unsure: [] }));
    const guesses = [
      { scac: 'CMDU', name: 'CMA CGM', confidence: 0.5 },
      { scac: 'MSCU', name: 'MSC', confidence: 0.5 },
    ];
    const rows = [
      row(2),
      row(3, { status: 'validation', field: 'number', message: 'MSCU1234567 is not a valid container number.' }),
      row(4, {
        status: 'validation',
        field: 'carrier',
        carrier: null,
        message: 'Not sure of the carrier.',
        candidates: guesses,
      }),
    ];
    bridge.answer('imports:preview', () => state(rows));
    const user = userEvent.setup();
    await chooseFile(user);

    // Sure of every column: straight to the preview.
    const summary = await screen.findByText('3 rows: 1 ready to send · 2 need a fix');
    expect(summary.getAttribute('role')).toBe('status');
    const table3 = screen.getByRole('row', { name: /MSCU3/ });
    expect(table3.textContent).toContain('Needs a fix');
    expect(table3.textContent).toContain('MSCU1234567 is not a valid container number.');

    bridge.answer('imports:setCarrier', ({ row: n, scac }) =>
      state([rows[0]!, rows[1]!, row(n, { carrier: scac, carrierName: 'MSC' })]),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Carrier for row 4' }), 'MSCU');
    await user.click(screen.getByRole('button', { name: 'Use this carrier for row 4' }));
    expect(bridge.argsOf('imports:setCarrier')).toEqual([{ id: 'imp-1', row: 4, scac: 'MSCU' }]);
    await screen.findByText('3 rows: 2 ready to send · 1 needs a fix');

    const ready = [rows[0]!, row(4, { carrier: 'MSCU' })];
    bridge.answer('imports:send', () =>
      state([rows[0]!, rows[1]!, ready[1]!], { phase: 'sending', progress: { done: 0, total: 2, etaSeconds: null } }),
    );
    await user.click(screen.getByRole('button', { name: 'Send 2 tracking requests' }));
    expect(bridge.argsOf('imports:send')).toEqual([{ id: 'imp-1' }]);
    const bar = await screen.findByRole('progressbar', { name: 'Sending tracking requests' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');

    // An event with the rows that changed moves the bar and the row.
    const counts = { ...emptyImportCounts(), created: 1, ready: 1, validation: 1 };
    bridge.emit('imports:progress', {
      id: 'imp-1',
      version: 1,
      phase: 'sending',
      cancelled: false,
      stopped: null,
      progress: { done: 1, total: 2, etaSeconds: 90 },
      counts,
      rows: [row(2, { status: 'created', trackingRequestId: 'tr-9' })],
    });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('1'));
    expect(screen.getByText(/^Sending: 1 of 2 · about 2 min left/)).toBeTruthy();
    expect(screen.getByRole('row', { name: /MSCU2/ }).textContent).toContain('Created');
    expect(screen.getByRole('link', { name: 'Show tracking request MSCU2' })).toBeTruthy();

    // An event whose number skips one: the whole import is read again.
    bridge.answer('imports:get', () =>
      state(
        [
          row(2, { status: 'created' }),
          rows[1]!,
          row(4, { status: 'failed', message: 'The Tracking API refused it.' }),
        ],
        {
          version: 3,
          phase: 'done',
          progress: { done: 2, total: 2, etaSeconds: null },
        },
      ),
    );
    bridge.emit('imports:progress', {
      id: 'imp-1',
      version: 3,
      phase: 'done',
      cancelled: false,
      stopped: null,
      progress: { done: 2, total: 2, etaSeconds: null },
      counts: { ...emptyImportCounts(), created: 1, failed: 1, validation: 1 },
      rows: [],
    });
    await screen.findByRole('heading', { name: 'Results' });
    await waitFor(() =>
      expect(screen.getByRole('row', { name: /MSCU4/ }).textContent).toContain('The Tracking API refused it.'),
    );
    expect(bridge.argsOf('imports:get')).toEqual([{ id: 'imp-1' }]);
    bridge.answer('imports:send', () => state([], { phase: 'sending' }));
    await user.click(screen.getByRole('button', { name: 'Retry failed (1)' }));
    expect(bridge.argsOf('imports:send').at(-1)).toEqual({ id: 'imp-1', rows: [4] });
  });

  it('reads pasted cells and says what is wrong with them', async () => {
    bridge.answer('imports:read', () => {
      throw new Refusal({
        code: 'invalid_argument',
        message: 'What was pasted holds no value: there is nothing to import.',
      });
    });
    render(ImportView);
    const user = userEvent.setup();
    const read = screen.getByRole('button', { name: 'Read pasted cells' });
    expect(read).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('textbox', { name: /Copy the cells/ }));
    await user.paste(',,\n,,');
    await user.click(read);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'What was pasted holds no value: there is nothing to import.',
    );
    expect(bridge.argsOf('imports:read')).toEqual([{ text: ',,\n,,' }]);
  });

  it('reads at most one byte past the limit of a file that claims to be small', async () => {
    bridge.answer('imports:read', () => table);
    // A file whose size says 1 KB while its bytes run past the limit: what is read is bounded, not what is said.
    const bytes = new Uint8Array(MAX_IMPORT_BYTES + 4096).fill(0x41);
    const real = new Blob([bytes]);
    const liar = { name: 'boxes.csv', size: 1024, slice: (start?: number, end?: number) => real.slice(start, end) };
    await importScreen.readFile(liar as unknown as File);
    const [sent] = bridge.argsOf('imports:read') as { base64: string }[];
    expect(atob(sent!.base64).length).toBe(MAX_IMPORT_BYTES + 1);
  });
});
