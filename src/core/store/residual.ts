/**
 * Residual raw: a big table's `raw` keeps only what its columns do not hold, so no value is
 * stored twice (whole records beside their columns made `raw` three quarters of the file).
 *
 * A descriptor column may declare what of the record it holds (`holds` in `resources/define.ts`):
 * an attribute, or a to-one relationship's id of one type. As a record is written, each such
 * member is left out of `raw` when the column's value gives it back exactly (same JSON type and
 * value: a date the store normalised, a number sent as text, a rail terminal where a terminal is
 * declared all stay in `raw`); `type` and `id` go too. What `raw` then holds is the residual:
 * every other member, and `~absent`, the held members the record did not have at all (so a
 * record read back has no `null` where the service sent nothing). `recordFrom` puts the record
 * back together from the residual and the columns: equal as JSON to what the service sent (the
 * order of members aside). A descriptor's `usual` names members no column holds with the value
 * they nearly always have (an event's `value`: null; a container's holds: `[]`): left out when
 * they have it, given back with it. `selfLink` does the same for `links: { self }` ending in the
 * id, and a to-many relationship of UUIDs is kept as 16 bytes an id (`compactIds`). A record
 * whose residual would be longer than itself (it lacks many held members) is kept whole, as a
 * one-element array.
 *
 * The same code serves the writer (the spec from the descriptor, `residualSpec`) and migration
 * 0008 (a frozen spec in its SQL, through `raw_residual`), which strips rows by the values their
 * columns hold, so a column an older Quayside left NULL keeps its member in the residual.
 */
import type Database from 'better-sqlite3';
import type { Holds, ResourceDescriptor } from '../resources/define';

/** How a held attribute is compared with its column: as is, a boolean as 0/1, or as JSON text. */
export type HeldKind = 'value' | 'flag' | 'json';

/** What a table's columns hold; indexes are into the row's values (the writer's, or `raw_residual`'s). */
export interface ResidualSpec {
  /** The table's own type: left out of the residual when the record has it. */
  type: string;
  attributes: [name: string, index: number, kind: HeldKind][];
  /**
   * Each relationship with the columns that may hold its id, with the type each stands for (a
   * number: the index of the column holding the type).
   */
  relationships: [name: string, held: [index: number, type: string | number][]][];
  /** Members no column holds, left out when they have their usual value (given back then). */
  usual?: { attributes?: Readonly<Record<string, unknown>>; relationships?: Readonly<Record<string, unknown>> };
  /** `links` left out when it is exactly `{ self: selfLink + id }`. */
  selfLink?: string;
}

/** The residual's member naming held members the record lacked (`a:name`, `r:name`, or a whole object). */
export const ABSENT = '~absent';

type Json = Record<string, unknown>;

interface Compiled {
  spec: ResidualSpec;
  attributes: Map<string, [index: number, kind: HeldKind]>;
  relationships: Map<string, [index: number, type: string | number][]>;
  /** Usual values as JSON text, by member name. */
  usualAttributes: Map<string, string>;
  usualRelationships: Map<string, string>;
}

const compiledCache = new WeakMap<ResidualSpec, Compiled>();
function compiled(spec: ResidualSpec): Compiled {
  let c = compiledCache.get(spec);
  if (c === undefined) {
    c = {
      spec,
      attributes: new Map(spec.attributes.map(([name, index, kind]) => [name, [index, kind]])),
      relationships: new Map(spec.relationships),
      usualAttributes: usualTexts(spec.usual?.attributes),
      usualRelationships: usualTexts(spec.usual?.relationships),
    };
    compiledCache.set(spec, c);
  }
  return c;
}

const usualTexts = (usual: Readonly<Record<string, unknown>> = {}) =>
  new Map(Object.entries(usual).map(([name, value]) => [name, JSON.stringify(value)]));

/** Whether `value` is the usual value of member `name` (null compared at once, the rest as JSON text). */
function isUsual(usual: Map<string, string>, name: string, value: unknown): boolean {
  const text = usual.get(name);
  if (text === undefined) return false;
  return value === null ? text === 'null' : typeof value === 'object' && JSON.stringify(value) === text;
}

/** How many members an object has (counted without making an array of their names). */
function members(o: Json): number {
  let n = 0;
  for (const key in o) if (hasOwn(o, key)) n++;
  return n;
}

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A null-prototype object: a member named `__proto__` stays a member. */
const bare = (): Json => Object.create(null) as Json;

/** Sets a member of a plain object (one named `__proto__` as a member, not the prototype). */
function put(o: Json, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true });
  else o[name] = value;
}

/** Whether a column's value gives back the attribute `v` exactly. */
function holdsAttribute(kind: HeldKind, v: unknown, column: unknown): boolean {
  if (v === null) return column === null || column === undefined;
  switch (kind) {
    case 'value':
      return (typeof v === 'string' || typeof v === 'number') && v === column;
    case 'flag':
      return typeof v === 'boolean' && (v ? 1 : 0) === column;
    case 'json':
      return typeof column === 'string' && JSON.stringify(v) === column;
  }
}

function restoreAttribute(kind: HeldKind, column: unknown): unknown {
  if (column === null || column === undefined) return null;
  if (kind === 'flag') return column === 1;
  if (kind === 'json') return JSON.parse(column as string) as unknown;
  return column;
}

/** The one id the columns hold for a relationship (null: none; undefined: several, so it cannot be told). */
function heldId(
  held: readonly [number, string | number][],
  values: readonly unknown[],
): [string, string] | null | undefined {
  let found: [string, string] | null = null;
  for (const [index, typeOrIndex] of held) {
    const id = values[index];
    if (id === null || id === undefined) continue;
    const type = typeof typeOrIndex === 'number' ? values[typeOrIndex] : typeOrIndex;
    if (found !== null || typeof id !== 'string' || typeof type !== 'string') return undefined;
    found = [id, type];
  }
  return found;
}

/** Whether the columns give back the relationship `v` exactly: `{ data: null }` or `{ data: { type, id } }`. */
function holdsRelationship(
  held: readonly [number, string | number][],
  v: unknown,
  values: readonly unknown[],
): boolean {
  if (!isObject(v) || !hasOwn(v, 'data') || members(v) !== 1) return false;
  const found = heldId(held, values);
  if (found === undefined) return false;
  const data = v.data;
  if (found === null) return data === null;
  return isObject(data) && members(data) === 2 && data.type === found[1] && data.id === found[0];
}

const topMembers = ['type', 'id', 'attributes', 'relationships'];
const isSelfLink = (v: unknown, self: string) => isObject(v) && members(v) === 1 && v.self === self;

/** The record's residual (JSON text) given the values its columns hold; `id` is the row's. */
export function residualOf(spec: ResidualSpec, record: Json, id: string, values: readonly unknown[]): string {
  const c = compiled(spec);
  const out: Json = {};
  const absent: string[] = [];
  for (const key in record) {
    const v = record[key];
    if ((key === 'type' && v === spec.type) || (key === 'id' && v === id)) continue;
    if (key === 'links' && spec.selfLink !== undefined && isSelfLink(v, spec.selfLink + id)) continue;
    if (key === 'attributes' && isObject(v)) {
      const rest: Json = {};
      let kept = false;
      // Held and usual members seen: when all are there (as the service sends them), none is absent.
      let seen = 0;
      for (const name in v) {
        const value = v[name];
        const held = c.attributes.get(name);
        if (held !== undefined) {
          seen++;
          if (holdsAttribute(held[1], value, values[held[0]])) continue;
        } else if (c.usualAttributes.has(name)) {
          seen++;
          if (isUsual(c.usualAttributes, name, value)) continue;
        }
        put(rest, name, value);
        kept = true;
      }
      if (seen < c.attributes.size + c.usualAttributes.size) {
        for (const name of c.attributes.keys()) if (!hasOwn(v, name)) absent.push(`a:${name}`);
        for (const name of c.usualAttributes.keys()) if (!hasOwn(v, name)) absent.push(`a:${name}`);
      }
      if (kept) out.attributes = rest;
      continue;
    }
    if (key === 'relationships' && isObject(v)) {
      const rest: Json = {};
      let kept = false;
      let seen = 0;
      for (const name in v) {
        const value = v[name];
        const held = c.relationships.get(name);
        if (held !== undefined) {
          seen++;
          if (holdsRelationship(held, value, values)) continue;
        } else if (c.usualRelationships.has(name)) {
          seen++;
          if (isUsual(c.usualRelationships, name, value)) continue;
        }
        put(rest, name, compactIds(value, name, absent));
        kept = true;
      }
      if (seen < c.relationships.size + c.usualRelationships.size) {
        for (const name of c.relationships.keys()) if (!hasOwn(v, name)) absent.push(`r:${name}`);
        for (const name of c.usualRelationships.keys()) if (!hasOwn(v, name)) absent.push(`r:${name}`);
      }
      if (kept) out.relationships = rest;
      continue;
    }
    put(out, key, v);
  }
  for (const member of spec.selfLink === undefined ? topMembers : [...topMembers, 'links'])
    if (!hasOwn(record, member)) absent.push(member);
  if (absent.length > 0) out[ABSENT] = absent;
  const text = JSON.stringify(out);
  // A record that lacks many held members (the service sends them all) could cost more as a
  // residual than whole: then raw keeps it whole, as a one-element array.
  if (absent.length > 4) {
    const whole = JSON.stringify(record);
    if (whole.length + 2 <= text.length) return `[${whole}]`;
  }
  return text;
}

/** The record as the service sent it, from its residual (`raw`) and the values its columns hold. */
export function recordFrom(spec: ResidualSpec, id: string, residual: string, values: readonly unknown[]): Json {
  const c = compiled(spec);
  if (residual.startsWith('[')) return (JSON.parse(residual) as [Json])[0];
  const kept = JSON.parse(residual) as Json;
  const absent = new Set(Array.isArray(kept[ABSENT]) ? (kept[ABSENT] as string[]) : []);
  const out = bare();
  if (!absent.has('type')) out.type = spec.type;
  if (!absent.has('id')) out.id = id;
  if (!absent.has('attributes')) {
    const attributes = bare();
    for (const [name, [index, kind]] of c.attributes)
      if (!absent.has(`a:${name}`)) attributes[name] = restoreAttribute(kind, values[index]);
    for (const [name, text] of c.usualAttributes) if (!absent.has(`a:${name}`)) attributes[name] = JSON.parse(text);
    out.attributes = attributes;
  }
  if (!absent.has('relationships')) {
    const relationships = bare();
    for (const [name, held] of c.relationships) {
      if (absent.has(`r:${name}`)) continue;
      const found = heldId(held, values);
      relationships[name] = { data: found ? { type: found[1], id: found[0] } : null };
    }
    for (const [name, text] of c.usualRelationships)
      if (!absent.has(`r:${name}`)) relationships[name] = JSON.parse(text);
    out.relationships = relationships;
  }
  if (spec.selfLink !== undefined && !absent.has('links')) out.links = { self: spec.selfLink + id };
  for (const key in kept) {
    if (key === ABSENT) continue;
    const v = kept[key];
    if (key === 'relationships' && isObject(v)) {
      for (const name in v) if (!absent.has(`~:${name}`)) v[name] = expandIds(v[name]);
    }
    // Members the columns could not give back exactly win over what the columns say.
    if ((key === 'attributes' || key === 'relationships') && isObject(v) && isObject(out[key])) {
      Object.assign(out[key], v);
    } else out[key] = v;
  }
  return out;
}

/**
 * A to-many relationship `{ data: [{ type, id }…] }` of one type whose ids are all UUIDs, kept as
 * `{ "~ids": [type, ids] }`, the ids as 16 bytes each in base64url (a container lists ~20 events
 * and raw events: about a third of the JSON). A relationship the service sent in that very shape
 * is marked `~:name` in `~absent`, so it is never expanded.
 */
function compactIds(value: unknown, name: string, marks: string[]): unknown {
  if (!isObject(value)) return value;
  if (hasOwn(value, IDS) && members(value) === 1) {
    marks.push(`~:${name}`);
    return value;
  }
  const data = value.data;
  if (!Array.isArray(data) || data.length === 0 || members(value) !== 1) return value;
  const first: unknown = data[0];
  if (!isObject(first) || typeof first.type !== 'string') return value;
  const type = first.type;
  const bytes = Buffer.allocUnsafe(16 * data.length);
  for (let i = 0; i < data.length; i++) {
    const entry: unknown = data[i];
    if (!isObject(entry) || entry.type !== type || typeof entry.id !== 'string') return value;
    if (!uuidInto(entry.id, bytes, 16 * i) || members(entry) !== 2) return value;
  }
  return { [IDS]: [type, bytes.toString('base64url')] };
}

/** A lower-case UUID's 16 bytes written at `at`; false for anything else (what was written then means nothing). */
function uuidInto(id: string, bytes: Buffer, at: number): boolean {
  if (id.length !== 36) return false;
  let byte = at;
  for (let i = 0; i < 36; i += 2) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (id.charCodeAt(i) !== 45) return false; // '-'
      i--;
      continue;
    }
    const high = hexValue(id.charCodeAt(i));
    const low = hexValue(id.charCodeAt(i + 1));
    if (high < 0 || low < 0) return false;
    bytes[byte++] = (high << 4) | low;
  }
  return byte === at + 16;
}

/** A lower-case hex digit's value, else -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

function expandIds(value: unknown): unknown {
  if (!isObject(value) || !hasOwn(value, IDS) || members(value) !== 1) return value;
  const [type, packed] = value[IDS] as [string, string];
  const bytes = Buffer.from(packed, 'base64url');
  const data: { type: string; id: string }[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const hex = bytes.toString('hex', at, at + 16);
    data.push({
      type,
      id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    });
  }
  return { data };
}

const IDS = '~ids';

/** A descriptor's residual spec (indexes into its columns, in order), or null when no column holds a member. */
export function residualSpec(d: ResourceDescriptor): ResidualSpec | null {
  if (!('raw' in d.columns)) return null;
  const spec: ResidualSpec = { type: d.types[0], attributes: [], relationships: [] };
  const relationships = new Map<string, [number, string | number][]>();
  const names = Object.keys(d.columns);
  Object.values(d.columns).forEach((column, index) => {
    const all: readonly Holds[] =
      column.holds === undefined ? [] : Array.isArray(column.holds) ? column.holds : [column.holds as Holds];
    for (const holds of all) {
      if ('attribute' in holds) spec.attributes.push([holds.attribute, index, holds.as ?? 'value']);
      else {
        let held = relationships.get(holds.relationship);
        if (held === undefined) relationships.set(holds.relationship, (held = []));
        held.push([index, 'type' in holds ? holds.type : names.indexOf(holds.typeIn)]);
      }
    }
  });
  spec.relationships = [...relationships];
  if (d.usual) spec.usual = { ...d.usual };
  if (d.selfLink !== undefined) spec.selfLink = d.selfLink;
  if (spec.attributes.length === 0 && spec.relationships.length === 0) return null;
  return spec;
}

/** The columns a residual spec reads, by name, in column order (what `recordFrom` needs besides `raw`). */
export function heldColumns(d: ResourceDescriptor): { name: string; index: number }[] {
  const spec = residualSpec(d);
  if (spec === null) return [];
  const used = new Set<number>(spec.attributes.map(([, index]) => index));
  for (const [, held] of spec.relationships) {
    for (const [index, type] of held) {
      used.add(index);
      if (typeof type === 'number') used.add(type);
    }
  }
  const names = Object.keys(d.columns);
  return [...used].sort((a, b) => a - b).map((index) => ({ name: names[index]!, index }));
}

/**
 * `raw_residual(spec, id, raw, value…)`: the residual of a stored record (JSON text) given the
 * values its row's columns hold, in the order `spec` (JSON text of a `ResidualSpec`) indexes
 * them; NULL stays NULL (a stub). Migration 0008 strips existing rows with it.
 */
export function registerResidualFunction(db: Database.Database): void {
  const specs = new Map<string, ResidualSpec>();
  db.function('raw_residual', { deterministic: true, varargs: true }, (...args: unknown[]) => {
    const [specText, id, raw, ...values] = args;
    if (raw === null || raw === undefined) return null;
    if (typeof specText !== 'string' || typeof raw !== 'string') throw new TypeError('raw_residual takes JSON text');
    let spec = specs.get(specText);
    if (spec === undefined) specs.set(specText, (spec = JSON.parse(specText) as ResidualSpec));
    const record = JSON.parse(raw) as unknown;
    if (!isObject(record)) return raw;
    return residualOf(spec, record, String(id), values);
  });
}
