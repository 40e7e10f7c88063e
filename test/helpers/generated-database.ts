/**
 * A database of many shipments, written straight from the sandbox's generator (no HTTP): the
 * bench's 100k database (test/bench/big-database.ts) and tests that need more rows than a sync
 * gives quickly.
 */
import { openDatabase, type Db } from '../../src/core/store/database';
import type { StoredResource } from '../../src/core/store/resource';
import { writeResources } from '../../src/core/store/writer';
import { SandboxCustomFields } from '../../src/sandbox/custom-fields';
import { generateWorld, type GeneratedWorld } from '../../src/sandbox/generate';
import { serialize, type SerializeContext } from '../../src/sandbox/serialize';

export interface BigDatabase {
  db: Db;
  seconds: number;
  rows: number;
  sampleBl: string;
}

export interface BigDatabaseOptions {
  /**
   * Also write the account's custom field definitions, options and the values of every shipment
   * and container (after the timed ingest, so its figure stays the rows it always counted).
   */
  customFields?: boolean;
  /** Also write the account's tracking requests (one per shipment and ~8% more that never became one). */
  trackingRequests?: boolean;
}

export function buildBigDatabase(
  path: string,
  shipments: number,
  seed = 'bench-store',
  options: BigDatabaseOptions = {},
): BigDatabase {
  const world = generateWorld({ seed, shipments, now: Date.now() });
  const ctx: SerializeContext = { now: Date.now(), account: world.account };
  const db = openDatabase(path);
  const started = performance.now();
  let rows = 0;
  const reference: StoredResource[] = [
    ...world.ports.map((rec) => serialize({ type: 'port', rec }, ctx)),
    ...world.terminals.map((rec) => serialize({ type: 'terminal', rec }, ctx)),
  ] as StoredResource[];
  writeResources(db, reference, { syncedAt: new Date().toISOString() });
  for (let i = 0; i < world.shipments.length; i += 100) {
    const batch: StoredResource[] = [];
    for (const shipment of world.shipments.slice(i, i + 100)) {
      batch.push(serialize({ type: 'shipment', rec: shipment }, ctx) as StoredResource);
      for (const container of shipment.containers)
        batch.push(serialize({ type: 'container', rec: container }, ctx) as StoredResource);
    }
    writeResources(db, batch, { syncedAt: new Date().toISOString() });
    rows += batch.length;
  }
  const seconds = (performance.now() - started) / 1000;
  if (options.customFields) writeCustomFields(db, world, ctx);
  if (options.trackingRequests) writeTrackingRequests(db, world, ctx);
  const sampleBl = world.shipments[Math.floor(world.shipments.length / 2)]!.billOfLading;
  return { db, seconds, rows, sampleBl };
}

function writeTrackingRequests(db: Db, world: GeneratedWorld, ctx: SerializeContext): void {
  const syncedAt = new Date().toISOString();
  for (let i = 0; i < world.trackingRequests.length; i += 500) {
    const batch = world.trackingRequests
      .slice(i, i + 500)
      .map((rec) => serialize({ type: 'tracking_request', rec }, ctx) as StoredResource);
    writeResources(db, batch, { syncedAt });
  }
}

/** Definitions, the options of pick lists (given their definition, as the sync's child list does) and values. */
function writeCustomFields(db: Db, world: GeneratedWorld, ctx: SerializeContext): void {
  const containers = world.shipments.flatMap((s) => s.containers);
  const fields = new SandboxCustomFields({ world, shipments: world.shipments, containers, trackingRequests: [] });
  const syncedAt = new Date().toISOString();
  const definitions = world.customFieldDefinitions.map((rec) =>
    serialize({ type: 'custom_field_definition', rec }, ctx),
  );
  const options = fields.options.map((rec) => {
    const option = serialize({ type: 'custom_field_option', rec }, ctx) as StoredResource;
    const definition = { data: { type: 'custom_field_definition', id: rec.definition.id } };
    return { ...option, relationships: { ...option.relationships, definition } };
  });
  writeResources(db, [...definitions, ...options] as StoredResource[], { syncedAt });
  const now = Date.now();
  let batch: StoredResource[] = [];
  for (const type of ['shipment', 'container'] as const) {
    for (const rec of fields.all(type, now)) {
      batch.push(serialize({ type: 'custom_field', rec }, ctx) as StoredResource);
      if (batch.length === 500) {
        writeResources(db, batch, { syncedAt });
        batch = [];
      }
    }
  }
  if (batch.length > 0) writeResources(db, batch, { syncedAt });
}
