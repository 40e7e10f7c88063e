import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { exportView } from '../../src/core/export/export-view';
import { openDatabase } from '../../src/core/store/database';
import { countTrackingRequests, listTrackingRequests } from '../../src/core/store/queries/tracking-requests';
import type { StoredResource } from '../../src/core/store/resource';
import { writeResources } from '../../src/core/store/writer';
import { tempDir } from '../helpers/temp-dir';

function request(id: string, number: string, tags: Record<string, unknown>): StoredResource {
  return {
    id,
    type: 'tracking_request',
    attributes: {
      request_number: number,
      request_type: 'bill_of_lading',
      scac: 'MAEU',
      status: 'pending',
      ref_numbers: [],
      created_at: '2026-02-01T00:00:00Z',
      updated_at: '2026-02-01T00:00:00Z',
      ...tags,
    },
    relationships: { tracked_object: { data: null }, customer: { data: null } },
  };
}

describe('tracking-request tags', () => {
  it('reads the live service’s shipment_tags and the reference’s tags, into the list, search and export', async () => {
    const dir = tempDir();
    const db = openDatabase(join(dir, 'store.sqlite'));
    writeResources(
      db,
      [
        // The live service's shape: `shipment_tags`, no `tags`.
        request('tr-live', 'LIVE0001', { shipment_tags: ['urgent', 'reefer'] }),
        // The reference's shape.
        request('tr-ref', 'REF00001', { tags: ['hazmat'] }),
        // Both present: the one holding tags wins.
        request('tr-both', 'BOTH0001', { tags: ['from-tags'], shipment_tags: [] }),
      ],
      { syncedAt: '2026-02-01T00:00:00Z' },
    );
    const rows = listTrackingRequests(db, {}).rows;
    const tagsOf = (number: string) => rows.find((r) => r.requestNumber === number)?.tags;
    expect(tagsOf('LIVE0001')).toEqual(['urgent', 'reefer']);
    expect(tagsOf('REF00001')).toEqual(['hazmat']);
    expect(tagsOf('BOTH0001')).toEqual(['from-tags']);
    expect(countTrackingRequests(db, { search: 'reefer' })).toBe(1);

    const out = join(dir, 'requests.csv');
    await exportView(db, out, { view: 'tracking-requests', columns: ['request_number', 'tags'], headerStyle: 'keys' });
    const csv = parse<Record<string, string>>(readFileSync(out, 'utf8'), { bom: true, columns: true });
    expect(Object.fromEntries(csv.map((r) => [r.request_number, r.tags]))).toEqual({
      LIVE0001: 'urgent; reefer',
      REF00001: 'hazmat',
      BOTH0001: 'from-tags',
    });
    db.close();
  });
});
