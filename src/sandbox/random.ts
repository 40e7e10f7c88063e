/**
 * Seeded randomness. Every generated value derives from (seed, a label), so one entity's data
 * does not shift when another's generation changes, and the same seed gives the same world.
 */

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a carried on from `h` over `text` (so a shared prefix is hashed once). */
function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** The murmur3 finaliser: every input bit moves every output bit. */
function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** 32-bit FNV-1a over a string, then avalanched (murmur3 finaliser). */
export function hash32(text: string): number {
  return avalanche(fnv(FNV_OFFSET, text));
}

/** A small fast PRNG (sfc32) with helpers; deterministic per seed string. */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: string) {
    // hash32(`${seed}#a`) and so on, the seed hashed once.
    const base = fnv(FNV_OFFSET, `${seed}#`);
    this.#a = avalanche(fnv(base, 'a'));
    this.#b = avalanche(fnv(base, 'b'));
    this.#c = avalanche(fnv(base, 'c'));
    this.#d = avalanche(fnv(base, 'd')) | 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return choices[choices.length - 1]![0];
  }

  digits(count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += String(this.int(0, 9));
    return out;
  }

  letters(count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += String.fromCharCode(65 + this.int(0, 25));
    return out;
  }
}

/** A stable RFC 4122 version-4-shaped UUID for a label under a seed. */
export function stableUuid(seed: string, label: string): string {
  // hash32(`${seed}|${label}|${i}`) for i = 0..3, the shared prefix hashed once.
  const base = fnv(FNV_OFFSET, `${seed}|${label}|`);
  const parts = ['0', '1', '2', '3'].map((i) => avalanche(fnv(base, i)).toString(16).padStart(8, '0'));
  const hex = parts.join('');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
