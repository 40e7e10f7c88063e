import { describe, expect, it } from 'vitest';

import { matchContainer, matchIn } from '../../src/core/handlers/search-match';
import type { ContainerRow, ShipmentRow } from '../../src/shared/rows';

describe('why a Ctrl+K result matched', () => {
  it('names the field holding the typed text and marks the text in it, whatever its case', () => {
    expect(
      matchIn('po-48', [
        ['Bill of lading', 'MAEU123456'],
        ['Reference number', 'PO-4821'],
      ]),
    ).toEqual({
      field: 'Reference number',
      parts: [
        { text: 'PO-48', hit: true },
        { text: '21', hit: false },
      ],
    });
  });

  it('takes the field holding most of the words, and marks each', () => {
    expect(
      matchIn('van berg', [
        ['Customer', 'Van Dijk'],
        ['Tag', 'broker van der Berg'],
      ]),
    ).toEqual({
      field: 'Tag',
      parts: [
        { text: 'broker ', hit: false },
        { text: 'van', hit: true },
        { text: ' der ', hit: false },
        { text: 'Berg', hit: true },
      ],
    });
    // Text that holds regular-expression characters is taken as it is typed.
    expect(matchIn('a.b(', [['Tag', 'xa.b(y']])?.parts).toEqual([
      { text: 'x', hit: false },
      { text: 'a.b(', hit: true },
      { text: 'y', hit: false },
    ]);
    expect(matchIn('zzz', [['Tag', 'abc']])).toBeNull();
  });

  it('says when a container was found through its shipment', () => {
    const container = { number: 'MSCU1234565', billOfLading: 'MEDU1', tags: [] } as unknown as ContainerRow;
    const shipment = { billOfLading: 'MEDU1', refNumbers: ['INV-7781'], tags: [] } as unknown as ShipmentRow;
    expect(matchContainer('7781', container, shipment).matched).toEqual({
      field: 'Shipment’s reference number',
      parts: [
        { text: 'INV-', hit: false },
        { text: '7781', hit: true },
      ],
    });
  });
});
