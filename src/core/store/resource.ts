/** The shape of a JSON:API resource object as the store reads it; extra members are kept in raw. */
export interface StoredResource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data?: unknown } | undefined>;
  [member: string]: unknown;
}

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A latitude or longitude: a number, or a decimal number as text (the live service), within ±limit. */
export function coordinate(value: unknown, limit: number): number | null {
  const n = typeof value === 'string' && /^\s*[-+]?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : num(value);
  return n !== null && Math.abs(n) <= limit ? n : null;
}

export function bool(value: unknown): number | null {
  return typeof value === 'boolean' ? (value ? 1 : 0) : null;
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The id of a to-one relationship, or null. */
export function relId(resource: StoredResource, name: string): string | null {
  const data = resource.relationships?.[name]?.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const id = (data as { id?: unknown }).id;
  return typeof id === 'string' ? id : typeof id === 'number' ? String(id) : null;
}

/** The type of a to-one relationship, or null. */
export function relType(resource: StoredResource, name: string): string | null {
  const data = resource.relationships?.[name]?.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const type = (data as { type?: unknown }).type;
  return typeof type === 'string' ? type : null;
}

/** The ids of a to-many relationship. */
export function relIds(resource: StoredResource, name: string): string[] {
  const data = resource.relationships?.[name]?.data;
  if (!Array.isArray(data)) return [];
  return data
    .map((d) => (typeof d === 'object' && d !== null ? (d as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string');
}

/** The id of a to-one relationship when it points at one of `types`, else null. */
export function relIdOfType(resource: StoredResource, name: string, types: readonly string[]): string | null {
  const type = relType(resource, name);
  return type !== null && types.includes(type) ? relId(resource, name) : null;
}
