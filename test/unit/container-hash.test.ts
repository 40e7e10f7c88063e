import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { containerHash } from '../../src/core/resources/containers';
import type { StoredResource } from '../../src/core/store/resource';
import { generateWorld } from '../../src/sandbox/generate';
import { serialize } from '../../src/sandbox/serialize';

// The hash is stored (containers.raw_hash) and decides whether a container's events are fetched
// again: a different text for the same record would re-fetch every container's events once.
const volatile = [
  'terminal_checked_at',
  'pod_last_tracking_request_at',
  'shipment_last_tracking_request_at',
  'updated_at',
];
function hashAsReleased(resource: StoredResource): string {
  const text = JSON.stringify(resource.attributes, (key, value: unknown) =>
    volatile.includes(key) ? undefined : value,
  );
  return createHash('sha1').update(text).digest('base64');
}

describe('container hash', () => {
  const now = Date.parse('2026-03-01T00:00:00Z');
  const world = generateWorld({ seed: 'container-hash', shipments: 60, now });
  const records = world.shipments.flatMap((shipment) =>
    shipment.containers.map(
      (rec) => serialize({ type: 'container', rec }, { now, account: world.account }) as StoredResource,
    ),
  );

  it('is the hash released versions stored, for every generated container', () => {
    expect(records.length).toBeGreaterThan(60);
    // Released versions counted `rail_last_tracking_request_at` (their sandbox never sent it):
    // a record without it hashes as it did, one with it as the same record without it.
    for (const record of records) {
      const { rail_last_tracking_request_at: _asked, ...attributes } = record.attributes;
      expect(containerHash(record)).toBe(hashAsReleased({ ...record, attributes }));
    }
  });

  it('ignores check times and sees real changes', () => {
    const record = records[0]!;
    const checkedAgain = { ...record, attributes: { ...record.attributes, updated_at: 'x', terminal_checked_at: 'y' } };
    expect(containerHash(checkedAgain)).toBe(containerHash(record));
    const railAsked = { ...record, attributes: { ...record.attributes, rail_last_tracking_request_at: 'z' } };
    expect(containerHash(railAsked)).toBe(containerHash(record));
    const discharged = { ...record, attributes: { ...record.attributes, pod_discharged_at: '2026-03-02T00:00:00Z' } };
    expect(containerHash(discharged)).not.toBe(containerHash(record));
  });

  it('keeps an attribute named __proto__ as a member, as released versions did', () => {
    const hostile = JSON.parse(
      '{"id":"c","type":"container","attributes":{"number":"A","__proto__":{"terminal":"T1"}}}',
    ) as StoredResource;
    expect(containerHash(hostile)).toBe(hashAsReleased(hostile));
  });
});
