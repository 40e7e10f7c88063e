/**
 * A JSON file of the app's own (`settings.json`, `profiles.json`) that carries a `version`.
 * Reading one applies its upgrade chain, in order, up to the version this Quayside writes; a file
 * written by a newer Quayside is refused with a sentence and must never be written over; a file
 * that cannot be read is set aside under a new name before a fresh one takes its place.
 *
 * Read bounded (`bounded-file.ts`): only a regular file, refused by the size the file system gives,
 * and read to one byte past the limit whatever that size said.
 */
import { existsSync, renameSync } from 'node:fs';
import { basename } from 'node:path';
import type { z } from 'zod';
import { readBoundedSync } from './bounded-file';

/** A stored object at some version, before it is checked against the current schema. */
export type StoredObject = Record<string, unknown>;

export interface FileFormat<T> {
  /** The file's name, for sentences ("profiles.json"). */
  name: string;
  /** The version this Quayside writes. */
  version: number;
  /**
   * `upgrades[n - 1]` turns a version-n object into a version-(n + 1) one; there is one per
   * version below `version`. Released steps are never edited, only added.
   */
  upgrades: readonly ((stored: StoredObject) => StoredObject)[];
  /** The version of a file written before it carried one. */
  unversioned: number;
  /** The current version's shape (with `version`). */
  schema: z.ZodType<T>;
}

export type ReadOutcome<T> =
  | { kind: 'missing' }
  /** `upgradedFrom` is the version on disk when it was older than the current one. */
  | { kind: 'read'; data: T; upgradedFrom: number | null }
  | { kind: 'newer'; version: number; message: string }
  | { kind: 'unreadable'; reason: string };

export function newerVersionMessage(name: string, version: number): string {
  return `${name} was written by a newer Quayside (version ${version}); update Quayside to use it. It has not been changed.`;
}

/** The most a file of ours is read to: settings and profiles take a few kilobytes. */
export const VERSIONED_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** The file's text, or why it is not read: bounded by the bytes actually read, never by a size it claims. */
function readText(file: string): { text: string } | { missing: true } | { reason: string } {
  let read;
  try {
    read = readBoundedSync(file, VERSIONED_FILE_MAX_BYTES);
  } catch (error) {
    return { reason: (error as Error).message };
  }
  switch (read.kind) {
    case 'read':
      return { text: read.bytes.toString('utf8') };
    case 'missing':
      return { missing: true };
    case 'not-a-file':
      return { reason: `it is ${read.what}, not a file` };
    case 'too-large':
      return { reason: `it is larger than ${VERSIONED_FILE_MAX_BYTES / 1024 / 1024} MB` };
  }
}

/** Reads, upgrades and checks one versioned file; never writes. */
export function readVersionedFile<T>(file: string, format: FileFormat<T>): ReadOutcome<T> {
  const read = readText(file);
  if ('missing' in read) return { kind: 'missing' };
  if ('reason' in read) return { kind: 'unreadable', reason: read.reason };
  const { text } = read;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', reason: 'it is not JSON' };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { kind: 'unreadable', reason: 'it does not hold an object' };
  }
  let stored = json as StoredObject;
  const version = stored.version === undefined ? format.unversioned : stored.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { kind: 'unreadable', reason: `its version (${JSON.stringify(version)}) is not a version number` };
  }
  if (version > format.version) {
    return { kind: 'newer', version, message: newerVersionMessage(format.name, version) };
  }
  for (let at = version; at < format.version; at++) {
    const upgrade = format.upgrades[at - 1];
    if (!upgrade) throw new Error(`${format.name}: no upgrade from version ${at}`);
    stored = { ...upgrade(stored), version: at + 1 };
  }
  const parsed = format.schema.safeParse({ ...stored, version: format.version });
  if (!parsed.success) return { kind: 'unreadable', reason: 'its contents do not have the expected shape' };
  return { kind: 'read', data: parsed.data, upgradedFrom: version < format.version ? version : null };
}

/**
 * Renames an unreadable file to `<name>.unreadable-<UTC time>` beside it (as `data:moveAside`), so a fresh file never
 * replaces it; returns the new name (its base name, for sentences).
 */
export function moveAside(file: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  let target = `${file}.unreadable-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${file}.unreadable-${stamp}-${n}`;
  renameSync(file, target);
  return basename(target);
}
