/**
 * A search text holding a NUL character (pasted, or from a saved view's file) is read as two
 * words: the lists answer it, never an FTS5 "unterminated string" error.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/store/database';
import { countContainers, listContainers } from '../../src/core/store/queries/containers';
import { countShipments, listShipments } from '../../src/core/store/queries/shipments';
import { writeResources } from '../../src/core/store/writer';
import { containerResource, shipmentResource } from '../helpers/resources';
import { tempDir } from '../helpers/temp-dir';

describe('a search text with a NUL character', () => {
  it('finds what its words find on either side of it', () => {
    const db = openDatabase(join(tempDir(), 'nul.sqlite'));
    writeResources(
      db,
      [
        shipmentResource({ bill_of_lading_number: 'BLNUL0001' }, { id: 's1', containers: ['c1'] }),
        containerResource('s1', { number: 'QQQU1000001' }, 'c1'),
        shipmentResource({ bill_of_lading_number: 'BLOTHER02' }, { id: 's2' }),
      ],
      { syncedAt: '2026-03-01T00:00:00.000Z' },
    );
    // A shipment by a word of its own text and one of its box's number.
    for (const search of ['BLNUL\0QQQU1', 'BL\0NUL', 'QQQU\0']) {
      expect(listShipments(db, { search }, { limit: 10 }).rows.map((r) => r.id)).toEqual(['s1']);
      expect(countShipments(db, { search })).toBe(1);
    }
    for (const search of ['BL\0NUL', 'QQQU\0']) {
      expect(listContainers(db, { search }, { limit: 10 }).rows.map((r) => r.id)).toEqual(['c1']);
      expect(countContainers(db, { search })).toBe(1);
    }
    db.close();
  });
});
