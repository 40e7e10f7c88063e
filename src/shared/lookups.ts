/**
 * The reference records a view may look up by id (`<name>:get`, local first, refreshed when
 * online), by registry name: the IPC channels come from this list, and each name's descriptor in
 * src/core/resources says where the record is kept, what names it and where the service has it.
 */
export const lookupNames = [
  'shippingLines',
  'terminals',
  'parties',
  'customFieldDefinitions',
  'ports',
  'metroAreas',
] as const;

/** A resource a view looks up by id. */
export type LookupName = (typeof lookupNames)[number];
