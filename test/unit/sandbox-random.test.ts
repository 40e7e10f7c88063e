import { describe, expect, it } from 'vitest';
import { hash32, Random, stableUuid } from '../../src/sandbox/random';

// A demo database keeps the ids and values the sandbox generated: the same seed must give the
// same world in every release. These are the formulas as first released, written out plainly.
function uuidAsReleased(seed: string, label: string): string {
  const hex = [0, 1, 2, 3].map((i) => hash32(`${seed}|${label}|${i}`).toString(16).padStart(8, '0')).join('');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

describe('sandbox randomness', () => {
  it('gives every label the id released versions gave it', () => {
    for (const seed of ['demo', 'core-test', 'ünïcode ✓']) {
      for (const label of ['shipment:1', 'container:1:0', '', 'port:USLAX']) {
        expect(stableUuid(seed, label)).toBe(uuidAsReleased(seed, label));
      }
    }
    expect(stableUuid('demo', 'a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableUuid('demo', 'a')).not.toBe(stableUuid('demo', 'b'));
  });

  it('draws for a seed the sequence released versions drew (sfc32 seeded from the hashed seed)', () => {
    function* asReleased(seed: string) {
      let a = hash32(`${seed}#a`);
      let b = hash32(`${seed}#b`);
      let c = hash32(`${seed}#c`);
      let d = hash32(`${seed}#d`) | 1;
      for (let i = 0; ; i++) {
        const t = (((a + b) | 0) + d) | 0;
        d = (d + 1) | 0;
        a = b ^ (b >>> 9);
        b = (c + (c << 3)) | 0;
        c = (c << 21) | (c >>> 11);
        c = (c + t) | 0;
        if (i >= 12) yield (t >>> 0) / 4294967296;
      }
    }
    for (const seed of ['seed-1', 'demo|shipment:7', '']) {
      const random = new Random(seed);
      const released = asReleased(seed);
      for (let i = 0; i < 50; i++) expect(random.next()).toBe(released.next().value);
    }
  });
});
