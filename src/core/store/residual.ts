/**
 * Residual raw (issue 17 item 2): a big table's `raw` keeps only what its columns do not hold.
 *
 * A descriptor column may declare what of the record it holds (`holds` in `resources/define.ts`):
 * an attribute, or a to-one relationship's id of one type. As a record is written, each such
 * member is left out of `raw` when the column's value gives it back exactly (same JSON type and
 * value: a date the store normalised, a number sent as text, a rail terminal where a terminal is
 * declared all stay in `raw`); `type` and `id` go too. What `raw` then holds is the residual:
 * every other member, and `~absent`, the held members the record did not have at all (so a
 * record read back has no `null` where the service sent nothing). `recordFrom` puts the record
 * back together from the residual and the columns: equal as JSON to what the service sent (the
 * order of members aside). A descriptor's `usuallyNull` names members no column holds that are
 * nearly always null (an event's `value`): left out when null, given back as null.
 *
 * The same code serves the writer (the spec from the descriptor, `residualSpec`) and migration
 * 0007 (a frozen spec in its SQL, through `raw_residual`), which strips rows by the values their
 * columns hold, so a column an older Quayside left NULL keeps its member in the residual.
 */
import type Database from 'better-sqlite3';
import type { ResourceDescriptor } from '../resources/define';

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
  usuallyNull?: { attributes?: readonly string[]; relationships?: readonly string[] };
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
  nullAttributes: Set<string>;
  nullRelationships: Set<string>;
}

const compiledCache = new WeakMap<ResidualSpec, Compiled>();
function compiled(spec: ResidualSpec): Compiled {
  let c = compiledCache.get(spec);
  if (c === undefined) {
    c = {
      spec,
      attributes: new Map(spec.attributes.map(([name, index, kind]) => [name, [index, kind]])),
      relationships: new Map(spec.relationships),
      nullAttributes: new Set(spec.usuallyNull?.attributes ?? []),
      nullRelationships: new Set(spec.usuallyNull?.relationships ?? []),
    };
    compiledCache.set(spec, c);
  }
  return c;
}

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A null-prototype object: a member named `__proto__` stays a member. */
const bare = (): Json => Object.create(null) as Json;

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
function holdsRelationship(held: readonly [number, string | number][], v: unknown, values: readonly unknown[]): boolean {
  if (!isObject(v) || !hasOwn(v, 'data') || Object.keys(v).length !== 1) return false;
  const found = heldId(held, values);
  if (found === undefined) return false;
  const data = v.data;
  if (found === null) return data === null;
  return isObject(data) && Object.keys(data).length === 2 && data.type === found[1] && data.id === found[0];
}

const members = ['type', 'id', 'attributes', 'relationships'];
const isSelfLink = (v: unknown, self: string) => isObject(v) && Object.keys(v).length === 1 && v.self === self;

const isNullRelationship = (v: unknown) => isObject(v) && Object.keys(v).length === 1 && v.data === null;

/** The record's residual (JSON text) given the values its columns hold; `id` is the row's. */
export function residualOf(spec: ResidualSpec, record: Json, id: string, values: readonly unknown[]): string {
  const c = compiled(spec);
  const out = bare();
  const absent: string[] = [];
  for (const key in record) {
    const v = record[key];
    if ((key === 'type' && v === spec.type) || (key === 'id' && v === id)) continue;
    if (key === 'links' && spec.selfLink !== undefined && isSelfLink(v, spec.selfLink + id)) continue;
    if (key === 'attributes' && isObject(v)) {
      const rest = bare();
      let kept = false;
      for (const name in v) {
        const value = v[name];
        const held = c.attributes.get(name);
        if (held !== undefined ? holdsAttribute(held[1], value, values[held[0]]) : value === null && c.nullAttributes.has(name))
          continue;
        rest[name] = value;
        kept = true;
      }
      for (const name of c.attributes.keys()) if (!hasOwn(v, name)) absent.push(`a:${name}`);
      for (const name of c.nullAttributes) if (!hasOwn(v, name)) absent.push(`a:${name}`);
      if (kept) out.attributes = rest;
      continue;
    }
    if (key === 'relationships' && isObject(v)) {
      const rest = bare();
      let kept = false;
      for (const name in v) {
        const value = v[name];
        const held = c.relationships.get(name);
        if (held !== undefined ? holdsRelationship(held, value, values) : c.nullRelationships.has(name) && isNullRelationship(value))
          continue;
        rest[name] = value;
        kept = true;
      }
      for (const name of c.relationships.keys()) if (!hasOwn(v, name)) absent.push(`r:${name}`);
      for (const name of c.nullRelationships) if (!hasOwn(v, name)) absent.push(`r:${name}`);
      if (kept) out.relationships = rest;
      continue;
    }
    out[key] = v;
  }
  for (const member of spec.selfLink === undefined ? members : [...members, 'links'])
    if (!hasOwn(record, member)) absent.push(member);
  if (absent.length > 0) out[ABSENT] = absent;
  return JSON.stringify(out);
}

/** The record as the service sent it, from its residual (`raw`) and the values its columns hold. */
export function recordFrom(spec: ResidualSpec, id: string, residual: string, values: readonly unknown[]): Json {
  const c = compiled(spec);
  const kept = JSON.parse(residual) as Json;
  const absent = new Set(Array.isArray(kept[ABSENT]) ? (kept[ABSENT] as string[]) : []);
  const out = bare();
  if (!absent.has('type')) out.type = spec.type;
  if (!absent.has('id')) out.id = id;
  if (!absent.has('attributes')) {
    const attributes = bare();
    for (const [name, [index, kind]] of c.attributes)
      if (!absent.has(`a:${name}`)) attributes[name] = restoreAttribute(kind, values[index]);
    for (const name of c.nullAttributes) if (!absent.has(`a:${name}`)) attributes[name] = null;
    out.attributes = attributes;
  }
  if (!absent.has('relationships')) {
    const relationships = bare();
    for (const [name, held] of c.relationships) {
      if (absent.has(`r:${name}`)) continue;
      const found = heldId(held, values);
      relationships[name] = { data: found ? { type: found[1], id: found[0] } : null };
    }
    for (const name of c.nullRelationships) if (!absent.has(`r:${name}`)) relationships[name] = { data: null };
    out.relationships = relationships;
  }
  if (spec.selfLink !== undefined && !absent.has('links')) out.links = { self: spec.selfLink + id };
  for (const key in kept) {
    if (key === ABSENT) continue;
    const v = kept[key];
    // Members the columns could not give back exactly win over what the columns say.
    if ((key === 'attributes' || key === 'relationships') && isObject(v) && isObject(out[key])) {
      Object.assign(out[key] as Json, v);
    } else out[key] = v;
  }
  return out;
}

/** A descriptor's residual spec (indexes into its columns, in order), or null when no column holds a member. */
export function residualSpec(d: ResourceDescriptor): ResidualSpec | null {
  if (!('raw' in d.columns)) return null;
  const spec: ResidualSpec = { type: d.types[0], attributes: [], relationships: [] };
  const relationships = new Map<string, [number, string | number][]>();
  const names = Object.keys(d.columns);
  Object.values(d.columns).forEach((column, index) => {
    const holds = column.holds;
    if (holds === undefined) return;
    if ('attribute' in holds) spec.attributes.push([holds.attribute, index, holds.as ?? 'value']);
    else {
      let held = relationships.get(holds.relationship);
      if (held === undefined) relationships.set(holds.relationship, (held = []));
      held.push([index, 'type' in holds ? holds.type : names.indexOf(holds.typeIn)]);
    }
  });
  spec.relationships = [...relationships];
  if (d.usuallyNull) spec.usuallyNull = { ...d.usuallyNull };
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
 * them; NULL stays NULL (a stub). Migration 0007 strips existing rows with it.
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
