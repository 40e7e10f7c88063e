/**
 * The account's custom field values and the options of its pick-list fields. Values are drawn
 * per record from `Random(seed:custom_fields:<record id>)` the first time the record is read, so
 * nothing else in the world shifts; writes through the API replace them.
 */
import type {
  ContainerPlan,
  CustomFieldDefinitionRec,
  CustomFieldOptionRec,
  CustomFieldRec,
  ListSource,
  ShipmentPlan,
  TrackingRequestPlan,
} from './model';
import { Random, stableUuid } from './random';

/** What the values are drawn over: the account's records and definitions (the sandbox's store). */
interface Records {
  readonly world: { readonly seed: string; readonly customFieldDefinitions: CustomFieldDefinitionRec[] };
  readonly shipments: readonly ShipmentPlan[];
  readonly containers: readonly ContainerPlan[];
  readonly trackingRequests: readonly TrackingRequestPlan[];
}

type EntityRef = CustomFieldRec['entity'];
export type CustomFieldEntityType = EntityRef['type'];
const entityTypes: readonly CustomFieldEntityType[] = ['shipment', 'container', 'tracking_request'];

interface FlatValues {
  /** How many records the list was built over, and at which value version. */
  readonly records: number;
  readonly version: number;
  readonly values: CustomFieldRec[];
  /** Where each record's values start in `values`. */
  readonly starts: number[];
  readonly byId: Map<string, CustomFieldRec>;
}

/** The definition's `entity_type` for a record type, and back. */
export const definitionEntityType: Record<CustomFieldEntityType, CustomFieldDefinitionRec['entityType']> = {
  shipment: 'Shipment',
  container: 'Container',
  tracking_request: 'TrackingRequest',
};

const DAY = 86_400_000;
const incoterms: [string, string][] = [
  ['EXW', 'EXW (Ex works)'],
  ['FCA', 'FCA (Free carrier)'],
  ['FOB', 'FOB (Free on board)'],
  ['CFR', 'CFR (Cost and freight)'],
  ['CIF', 'CIF (Cost, insurance and freight)'],
  ['DAP', 'DAP (Delivered at place)'],
  ['DDP', 'DDP (Delivered duty paid)'],
];
const brokers = ['Expeditors Customs', 'Livingston International', 'Kuehne + Nagel Customs', 'Flexport Customs'];
const addresses = [
  '1200 Commerce Way, Ontario, CA',
  '45 Logistics Pkwy, Edison, NJ',
  '800 Distribution Dr, Joliet, IL',
  '3100 Harbor Blvd, Savannah, GA',
  '77 Warehouse Rd, Kent, WA',
];
const costCentres = ['CC-100 Imports', 'CC-210 Retail', 'CC-320 Automotive', 'CC-400 Projects'];

/** A value drawn for one field of one record, or undefined when the record leaves it unset. */
function draw(slug: string, random: Random, createdAt: number, reefer: boolean): CustomFieldRec['value'] | undefined {
  switch (slug) {
    case 'po_number':
      return random.chance(0.8) ? `PO-${random.digits(6)}` : undefined;
    case 'customs_broker':
      return random.chance(0.5) ? random.pick(brokers) : undefined;
    case 'incoterm':
      return random.chance(0.7) ? random.pick(incoterms)[0] : undefined;
    case 'cargo_ready_date':
      return random.chance(0.4) ? new Date(createdAt - random.int(2, 20) * DAY).toISOString().slice(0, 10) : undefined;
    case 'delivery_address':
      return random.chance(0.5) ? random.pick(addresses) : undefined;
    case 'pallet_count':
      return random.chance(0.6) ? random.int(4, 30) : undefined;
    case 'temperature_controlled':
      return reefer ? true : random.chance(0.25) ? false : undefined;
    case 'cost_centre':
      return random.chance(0.6) ? random.pick(costCentres) : undefined;
    default:
      return undefined;
  }
}

export class SandboxCustomFields {
  readonly #store: Records;
  readonly options: CustomFieldOptionRec[];
  /**
   * The generated definitions, in order: values are drawn over these alone, one draw each, so a
   * definition added or deleted through the API shifts no other field's drawn values.
   */
  readonly #drawn: readonly CustomFieldDefinitionRec[];
  readonly #values = new Map<string, CustomFieldRec[]>();
  /** Definitions and options created through the API, counted for their ids. */
  #made = 0;
  readonly #flats = new Map<CustomFieldEntityType, FlatValues>();
  /** Bumped when a value is created or removed: the flat lists are rebuilt on next read. */
  #version = 0;

  constructor(store: Records) {
    this.#store = store;
    const seed = store.world.seed;
    this.#drawn = [...store.world.customFieldDefinitions];
    this.options = store.world.customFieldDefinitions
      .filter((d) => d.dataType === 'enum')
      .flatMap((definition) =>
        (definition.apiSlug === 'incoterm' ? incoterms : []).map(([value, label], position) => ({
          id: stableUuid(seed, `custom_field_option:${definition.apiSlug}:${value}`),
          definition,
          label,
          value,
          position: position + 1,
        })),
      );
  }

  definitionsFor(type: CustomFieldEntityType): CustomFieldDefinitionRec[] {
    return this.#store.world.customFieldDefinitions.filter((d) => d.entityType === definitionEntityType[type]);
  }

  optionsOf(definition: CustomFieldDefinitionRec): CustomFieldOptionRec[] {
    return this.options.filter((o) => o.definition === definition);
  }

  /** The values a record holds, in definition order (drawn the first time it is read). */
  valuesOf(entity: EntityRef): CustomFieldRec[] {
    const key = `${entity.type}:${entity.rec.id}`;
    let values = this.#values.get(key);
    if (!values) {
      const seed = this.#store.world.seed;
      const random = new Random(`${seed}:custom_fields:${entity.rec.id}`);
      const reefer = entity.type === 'container' && entity.rec.equipmentType === 'reefer';
      values = [];
      const live = new Set(this.#store.world.customFieldDefinitions);
      for (const definition of this.#drawn) {
        if (definition.entityType !== definitionEntityType[entity.type]) continue;
        const value = draw(definition.apiSlug, random, entity.rec.createdAt, reefer);
        if (value === undefined || !live.has(definition)) continue;
        const rec: CustomFieldRec = {
          id: this.#idOf(entity, definition),
          definition,
          entity,
          value,
          displayValue: null,
          createdAt: entity.rec.createdAt,
        };
        rec.displayValue = this.displayValue(rec);
        values.push(rec);
      }
      this.#values.set(key, values);
    }
    return values;
  }

  /** Every value on the records of a type (or all types) that exist at `now`, record by record. */
  all(type: CustomFieldEntityType | null, now: number): CustomFieldRec[] {
    return (type === null ? entityTypes : [type]).flatMap((each) => {
      const view = this.visible(each, now);
      return view.slice(0, view.length);
    });
  }

  /**
   * `all(type, now)` as a view over the type's flat list (see `#flat`): a page of it costs a
   * page's work, where building the list costs the whole account's.
   */
  visible(type: CustomFieldEntityType, now: number): ListSource<CustomFieldRec> {
    const records = this.#recordsOf(type);
    const { values, starts } = this.#flat(type);
    // The first record (newest first) that exists at `now`.
    let lo = 0;
    let hi = records.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (records[mid]!.createdAt > now) lo = mid + 1;
      else hi = mid;
    }
    const from = lo < records.length ? starts[lo]! : values.length;
    return { length: values.length - from, slice: (start, end) => values.slice(from + start, from + end) };
  }

  /** A value by id, if its record exists at `now`. */
  find(id: string, now: number): CustomFieldRec | undefined {
    for (const type of entityTypes) {
      const value = this.#flat(type).byId.get(id);
      if (value) return value.entity.rec.createdAt <= now ? value : undefined;
    }
    return undefined;
  }

  /**
   * One type's values flattened in record order, with where each record's values start. Records
   * are kept newest first, so those that exist at a moment are a tail of the list, and so are their
   * values. Rebuilt when a record is added or a value created or removed (a value changed in place
   * is the same object).
   */
  #flat(type: CustomFieldEntityType): FlatValues {
    const records = this.#recordsOf(type);
    const cached = this.#flats.get(type);
    if (cached && cached.records === records.length && cached.version === this.#version) return cached;
    const values: CustomFieldRec[] = [];
    const starts = new Array<number>(records.length);
    const byId = new Map<string, CustomFieldRec>();
    const store = this.#store;
    const refAt = (at: number): EntityRef =>
      type === 'shipment'
        ? { type: 'shipment', rec: store.shipments[at]! }
        : type === 'container'
          ? { type: 'container', rec: store.containers[at]! }
          : { type: 'tracking_request', rec: store.trackingRequests[at]! };
    for (let at = 0; at < records.length; at++) {
      starts[at] = values.length;
      for (const value of this.valuesOf(refAt(at))) {
        values.push(value);
        byId.set(value.id, value);
      }
    }
    const flat: FlatValues = { records: records.length, version: this.#version, values, starts, byId };
    this.#flats.set(type, flat);
    return flat;
  }

  #recordsOf(type: CustomFieldEntityType): readonly { readonly id: string; readonly createdAt: number }[] {
    const store = this.#store;
    return type === 'shipment' ? store.shipments : type === 'container' ? store.containers : store.trackingRequests;
  }

  /** Sets (or creates) a record's value for a definition. */
  set(entity: EntityRef, definition: CustomFieldDefinitionRec, value: CustomFieldRec['value'], now: number) {
    const values = this.valuesOf(entity);
    const existing = values.find((v) => v.definition === definition);
    if (existing) {
      existing.value = value;
      existing.displayValue = this.displayValue(existing);
      return { rec: existing, created: false };
    }
    const rec: CustomFieldRec = {
      id: this.#idOf(entity, definition),
      definition,
      entity,
      value,
      displayValue: null,
      createdAt: now,
    };
    rec.displayValue = this.displayValue(rec);
    values.push(rec);
    const order = this.definitionsFor(entity.type);
    values.sort((a, b) => order.indexOf(a.definition) - order.indexOf(b.definition));
    this.#version++;
    return { rec, created: true };
  }

  /** Removes a record's value; false when it had none. */
  remove(entity: EntityRef, definition: CustomFieldDefinitionRec): boolean {
    const values = this.valuesOf(entity);
    const at = values.findIndex((v) => v.definition === definition);
    if (at < 0) return false;
    values.splice(at, 1);
    this.#version++;
    return true;
  }

  /** A definition created through the API; values of it exist only once set. */
  addDefinition(fields: Omit<CustomFieldDefinitionRec, 'id'>): CustomFieldDefinitionRec {
    const seed = this.#store.world.seed;
    const definition = {
      ...fields,
      id: stableUuid(seed, `custom_field_definition:new:${this.#made++}:${fields.apiSlug}`),
    };
    this.#store.world.customFieldDefinitions.push(definition);
    return definition;
  }

  /** Deletes a definition with its options and every value of it. */
  removeDefinition(definition: CustomFieldDefinitionRec): void {
    const list = this.#store.world.customFieldDefinitions;
    const at = list.indexOf(definition);
    if (at < 0) return;
    list.splice(at, 1);
    for (let i = this.options.length - 1; i >= 0; i--) {
      if (this.options[i]!.definition === definition) this.options.splice(i, 1);
    }
    for (const values of this.#values.values()) {
      const index = values.findIndex((v) => v.definition === definition);
      if (index >= 0) values.splice(index, 1);
    }
    this.#version++;
  }

  /** An option added to a pick-list definition, at `position` (1-based) or last. */
  addOption(definition: CustomFieldDefinitionRec, label: string, value: string, position: number | null) {
    const siblings = this.optionsOf(definition);
    const option: CustomFieldOptionRec = {
      id: stableUuid(this.#store.world.seed, `custom_field_option:new:${this.#made++}:${value}`),
      definition,
      label,
      value,
      position: position ?? (siblings.at(-1)?.position ?? 0) + 1,
    };
    this.options.push(option);
    this.#sortOptions();
    this.#relabel(definition);
    return option;
  }

  /** Renames or moves an option; the values that chose it show the new label. */
  editOption(option: CustomFieldOptionRec, changes: { label?: string; position?: number | null }): void {
    if (changes.label !== undefined) option.label = changes.label;
    if (changes.position !== undefined && changes.position !== null) option.position = changes.position;
    this.#sortOptions();
    this.#relabel(option.definition);
  }

  /** Removes an option; values that chose it keep it, shown as the value itself. */
  removeOption(option: CustomFieldOptionRec): void {
    const at = this.options.indexOf(option);
    if (at >= 0) this.options.splice(at, 1);
    this.#relabel(option.definition);
  }

  #sortOptions(): void {
    this.options.sort((a, b) => a.position - b.position);
  }

  /** Values drawn or set so far show their option's label as it is now. */
  #relabel(definition: CustomFieldDefinitionRec): void {
    for (const values of this.#values.values()) {
      for (const rec of values) if (rec.definition === definition) rec.displayValue = this.displayValue(rec);
    }
  }

  /** The text the service shows for a value: an option's label, Yes/No, or the value as text. */
  displayValue(rec: Pick<CustomFieldRec, 'value' | 'definition'>): string | null {
    const { value, definition } = rec;
    if (value === null) return null;
    const labelOf = (v: string) => this.optionsOf(definition).find((o) => o.value === v)?.label ?? v;
    if (Array.isArray(value)) return value.map(labelOf).join(', ');
    if (definition.dataType === 'enum') return labelOf(String(value));
    if (typeof value === 'boolean') return value ? 'Yes' : 'No';
    return String(value);
  }

  #idOf(entity: EntityRef, definition: CustomFieldDefinitionRec): string {
    return stableUuid(this.#store.world.seed, `custom_field:${entity.rec.id}:${definition.apiSlug}`);
  }
}

/** Why a value does not fit its definition, or null when it does. */
export function valueProblem(
  definition: CustomFieldDefinitionRec,
  value: unknown,
  options: CustomFieldOptionRec[],
): string | null {
  if (value === null) return null;
  switch (definition.dataType) {
    case 'short_text':
      return typeof value === 'string' && value.length <= 255 ? null : 'must be text of at most 255 characters';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? null : 'must be a date (YYYY-MM-DD)';
    case 'datetime':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? null : 'must be a date and time';
    case 'enum':
      return typeof value === 'string' && options.some((o) => o.value === value)
        ? null
        : `must be one of ${options.map((o) => o.value).join(', ')}`;
    case 'enum_multi':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && options.some((o) => o.value === v))
        ? null
        : `must be a list of ${options.map((o) => o.value).join(', ')}`;
  }
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(text);
}
