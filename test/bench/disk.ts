/**
 * The database on disk: bytes per shipment of a synced file, with its
 * containers, events and everything else the sync stored, and where they go (each table and
 * index, from SQLite's `dbstat`). Its anchor: the service's own JSON of the records the file keeps
 * (shipments, containers, events, tracking requests, custom field values), per shipment, as the
 * store gives them back (`storedRecordOf`), which is what a file keeping each record whole would
 * hold before any column, index or page.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { openDatabase } from '../../src/core/store/database';
import { storedRecordIds, storedRecordOf } from '../../src/core/store/queries/raw';
import { measure, type Measure } from './report';

const kept: [table: string, type: string][] = [
  ['shipments', 'shipment'],
  ['containers', 'container'],
  ['transport_events', 'transport_event'],
  ['tracking_requests', 'tracking_request'],
  ['custom_fields', 'custom_field'],
];

export interface Footprint {
  bytes: number;
  shipments: number;
  containers: number;
  events: number;
  /** Bytes of each table and index, largest first. */
  parts: { name: string; bytes: number }[];
  /** The service's JSON of the records kept in the big tables, in bytes. */
  serviceJson: number;
}

/** The file's size once its WAL is checkpointed into it, its record counts and its parts. */
export function footprint(path: string): Footprint {
  const db = new Database(path);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const count = (table: string) =>
      db.prepare(`SELECT count(*) FROM ${table} WHERE synced_at IS NOT NULL`).pluck().get() as number;
    const parts = db
      .prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
      .all() as { name: string; bytes: number }[];
    return {
      bytes: statSync(path).size,
      shipments: count('shipments'),
      containers: count('containers'),
      events: count('transport_events'),
      parts,
      serviceJson: serviceJsonBytes(path),
    };
  } finally {
    db.close();
  }
}

/** The bytes of the service's JSON of every record the big tables keep (stubs aside). */
function serviceJsonBytes(path: string): number {
  const db = openDatabase(path);
  try {
    let bytes = 0;
    for (const [, type] of kept) {
      for (const id of storedRecordIds(db, type)) {
        bytes += Buffer.byteLength(JSON.stringify(storedRecordOf(db, type, id)));
      }
    }
    return bytes;
  } finally {
    db.close();
  }
}

/** The figure against its 12 KB target, and the parts for the record (printed, and the largest as figures). */
export function footprintMeasures(label: string, f: Footprint): Measure[] {
  const perShipment = f.bytes / f.shipments / 1024;
  console.error(
    `${label}: ${(f.bytes / 1e6).toFixed(1)} MB for ${f.shipments} shipments, ${f.containers} containers, ` +
      `${f.events} events (${perShipment.toFixed(1)} KB per shipment); by table and index:`,
  );
  for (const part of f.parts) {
    console.error(
      `  ${part.name.padEnd(40)} ${(part.bytes / 1e6).toFixed(2).padStart(8)} MB  ${((100 * part.bytes) / f.bytes).toFixed(1).padStart(5)}%`,
    );
  }
  const largest = f.parts.slice(0, 6);
  const rest = f.bytes - largest.reduce((sum, p) => sum + p.bytes, 0);
  return [
    // Judged on the 12 KB: a file's size does not move with the machine's load.
    measure(`${label}: database bytes per shipment (with its containers and events)`, perShipment, 'KB', {
      below: 12,
      anchor: {
        name: "the service's JSON of the records kept, per shipment",
        value: f.serviceJson / f.shipments / 1024,
      },
    }),
    ...largest.map((p) =>
      measure(`${label}: database part ${p.name}, per shipment`, p.bytes / f.shipments / 1024, 'KB', {}),
    ),
    measure(`${label}: database, everything else, per shipment`, rest / f.shipments / 1024, 'KB', {}),
  ];
}
