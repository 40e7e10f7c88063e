import { describe, expect, it } from 'vitest';

import { contract } from '../../src/shared/ipc';
import { parseListFilters, parseListSort } from '../../src/shared/requests';

// What a list takes from a link or from its saved state goes through the same schema as the
// list's IPC channel: what the channel would refuse is dropped here, the rest kept.
describe('list filters from outside (a link, saved state)', () => {
  it('keeps every filter the list takes, as the channel would read it', () => {
    const raw = {
      statuses: ['available', 'discharged'],
      lfdTo: '2026-11-26T23:59:59.999Z',
      onHold: false,
      carriers: ['MAEU'],
      search: '  MSCU1234  ',
    };
    const filters = parseListFilters('containers', raw);
    expect(filters).toEqual({ ...raw, search: 'MSCU1234' });
    expect(contract['containers:list'].args.parse({ filters }).filters).toEqual(filters);
  });

  it('drops an unknown key and a bad value, and keeps the rest', () => {
    const filters = parseListFilters('containers', {
      statuses: ['available', 'sunk'],
      onHold: 'yes',
      lfdFrom: 'yesterday',
      carrier: ['MAEU'],
      pickupReady: true,
      __proto__: { overdue: true },
      tags: ['urgent'],
    });
    expect(filters).toEqual({ pickupReady: true, tags: ['urgent'] });
    // What is left is what the channel takes: the list still shows, with those filters.
    expect(contract['containers:list'].args.safeParse({ filters }).success).toBe(true);
  });

  it('checks each list against its own filters', () => {
    // Container and tracking-request statuses are different; lfd is a container filter.
    expect(parseListFilters('trackingRequests', { statuses: ['failed', 'available'] })).toEqual({});
    expect(parseListFilters('trackingRequests', { statuses: ['failed'] })).toEqual({ statuses: ['failed'] });
    expect(parseListFilters('shipments', { lfdTo: '2026-11-26T23:59:59.999Z', etaSlipped: true })).toEqual({
      etaSlipped: true,
    });
  });

  it('keeps each well-formed custom field filter and drops the others, one by one', () => {
    const filters = parseListFilters('shipments', {
      customFields: {
        po_number: { kind: 'text', contains: ' 4500 ' },
        incoterm: { kind: 'options', values: ['FOB'] },
        pallets: { kind: 'number', min: 9, max: 3 },
        'no spaces': { kind: 'text', contains: 'x' },
        cold: { kind: 'flag', is: 'yes' },
        ready: { kind: 'date', from: '2026-02-30' },
      },
    });
    expect(filters).toEqual({
      customFields: { po_number: { kind: 'text', contains: '4500' }, incoterm: { kind: 'options', values: ['FOB'] } },
    });
    expect(contract['shipments:list'].args.safeParse({ filters }).success).toBe(true);
    // None left well formed: no custom field filter at all. Email submissions have none to take.
    expect(parseListFilters('containers', { customFields: { cold: { kind: 'flag' } } })).toEqual({});
    expect(
      parseListFilters('emailSubmissions', { customFields: { po_number: { kind: 'text', contains: 'x' } } }),
    ).toEqual({});
    expect(parseListSort('trackingRequests', { field: 'cf.cost_centre', direction: 'desc' })).toEqual({
      field: 'cf.cost_centre',
      direction: 'desc',
    });
    expect(parseListSort('emailSubmissions', { field: 'cf.cost_centre', direction: 'desc' })).toBeNull();
    expect(parseListSort('shipments', { field: 'cf.po number', direction: 'asc' })).toBeNull();
  });

  it('gives no filters for anything but an object', () => {
    for (const raw of [null, undefined, 42, 'carriers', ['MAEU'], true]) {
      expect(parseListFilters('shipments', raw)).toEqual({});
    }
  });

  it('takes a sort only on a field the list sorts by, ascending or descending', () => {
    expect(parseListSort('containers', { field: 'last_free_day', direction: 'asc' })).toEqual({
      field: 'last_free_day',
      direction: 'asc',
    });
    expect(parseListSort('shipments', { field: 'last_free_day', direction: 'asc' })).toBeNull();
    expect(parseListSort('shipments', { field: 'eta', direction: 'sideways' })).toBeNull();
    expect(parseListSort('shipments', { field: 'eta' })).toBeNull();
    expect(parseListSort('shipments', 'eta:asc')).toBeNull();
  });
});
