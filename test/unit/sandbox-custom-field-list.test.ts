/**
 * The sandbox's `/custom_fields` list is served from a flat list per record type, paged as a view
 * (a 100k-shipment account has over a million values; rebuilding them per page made the walk
 * quadratic). The view must say exactly what walking the records says: the values of the records
 * that exist at the simulated moment, newest record first, after values are created, removed and
 * records added.
 */
import { describe, expect, it } from 'vitest';
import type { CustomFieldEntityType } from '../../src/sandbox/custom-fields';
import { generateWorld } from '../../src/sandbox/generate';
import type { CustomFieldRec } from '../../src/sandbox/model';
import { SandboxStore } from '../../src/sandbox/store';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-01T00:00:00Z');
const types: CustomFieldEntityType[] = ['shipment', 'container', 'tracking_request'];

/** Walking the records one by one, as the list did before. */
function walked(store: SandboxStore, type: CustomFieldEntityType, now: number): string[] {
  const book = store.customFields;
  const ids: string[] = [];
  const add = (values: CustomFieldRec[]) => values.forEach((v) => ids.push(v.id));
  if (type === 'shipment') {
    for (const rec of store.shipments) if (rec.createdAt <= now) add(book.valuesOf({ type, rec }));
  } else if (type === 'container') {
    for (const rec of store.containers) if (rec.createdAt <= now) add(book.valuesOf({ type, rec }));
  } else {
    for (const rec of store.trackingRequests) if (rec.createdAt <= now) add(book.valuesOf({ type, rec }));
  }
  return ids;
}

function paged(store: SandboxStore, type: CustomFieldEntityType, now: number, size: number): string[] {
  const view = store.customFields.visible(type, now);
  const ids: string[] = [];
  for (let start = 0; start < view.length; start += size) {
    for (const value of view.slice(start, start + size)) ids.push(value.id);
  }
  return ids;
}

describe('sandbox custom field values, paged as a view', () => {
  const store = new SandboxStore(generateWorld({ seed: 'cf-view', shipments: 60, now: NOW }));
  const created = store.shipments.map((s) => s.createdAt).sort((a, b) => a - b);
  const moments = [created[0]! - DAY, created[0]!, created[30]!, created[30]! + 1, NOW, NOW + 365 * DAY];

  it('serves, page by page, the values of the records that exist at each moment', () => {
    for (const type of types) {
      for (const now of moments) {
        const expected = walked(store, type, now);
        expect(paged(store, type, now, 7)).toEqual(expected);
        expect(store.customFields.all(type, now).map((v) => v.id)).toEqual(expected);
      }
      expect(walked(store, type, NOW).length).toBeGreaterThan(0);
      expect(paged(store, type, created[0]! - DAY, 25)).toEqual([]);
    }
  });

  it('finds a value by id only once its record exists', () => {
    const ship = store.shipments[store.shipments.length - 1]!;
    const value = store.customFields.valuesOf({ type: 'shipment', rec: ship })[0]!;
    expect(store.customFields.find(value.id, NOW)?.id).toBe(value.id);
    expect(store.customFields.find(value.id, ship.createdAt - 1)).toBeUndefined();
    expect(store.customFields.find('no-such-value', NOW)).toBeUndefined();
  });

  it('shows a value created or removed through the API, and records added later', () => {
    const book = store.customFields;
    const rec = store.shipments.find((s) => book.valuesOf({ type: 'shipment', rec: s }).length < 3)!;
    const entity = { type: 'shipment' as const, rec };
    const unset = book.definitionsFor('shipment').find((d) => !book.valuesOf(entity).some((v) => v.definition === d))!;
    const before = paged(store, 'shipment', NOW, 25);

    const { rec: added, created } = book.set(entity, unset, unset.dataType === 'boolean' ? true : 'x', NOW);
    expect(created).toBe(true);
    const withNew = paged(store, 'shipment', NOW, 25);
    expect(withNew).toEqual(walked(store, 'shipment', NOW));
    expect(withNew).toHaveLength(before.length + 1);
    expect(book.find(added.id, NOW)?.id).toBe(added.id);

    expect(book.remove(entity, unset)).toBe(true);
    expect(paged(store, 'shipment', NOW, 25)).toEqual(before);
    expect(book.find(added.id, NOW)).toBeUndefined();

    const requestsBefore = store.trackingRequests.length;
    store.createTrackingRequest({
      requestType: 'bill_of_lading',
      requestNumber: 'MAEU123456789',
      scac: 'MAEU',
      refNumbers: [],
      tags: [],
      customer: null,
      now: NOW,
    });
    expect(store.trackingRequests.length).toBe(requestsBefore + 1);
    for (const type of types) {
      expect(paged(store, type, NOW + 30 * DAY, 25)).toEqual(walked(store, type, NOW + 30 * DAY));
    }
  });
});
