/**
 * Local copies that cannot be opened or written, through the real core.
 * Each case ends with one sentence, loses nothing (the file is kept byte for byte), and the next
 * sync on the same data folder works.
 */
import Database from 'better-sqlite3';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/core/store/database';
import type { DatabaseHealth, MoveAsideResult } from '../../src/shared/types';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { hostileDir, makeReadOnly, runningAsRoot, sha256 } from '../helpers/database-files';
import { tempDir } from '../helpers/temp-dir';

/** A demo account synced once; each test starts from a copy of its database. */
let template = '';
let templateShipments = 0;

beforeAll(async () => {
  const { core, dataDir } = testCore({ dataDir: tempDir() });
  expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
  templateShipments = await value<number>(core, 'shipments:count', {});
  await core.close();
  template = join(dataDir, 'demo', 'demo.sqlite');
  expect(existsSync(`${template}-wal`)).toBe(false);
}, 120_000);

/** A data folder whose demo account's database is a copy of the synced one (or what `write` puts there). */
function dataFolder(write?: (file: string) => void): { dataDir: string; demoDir: string; file: string } {
  const dataDir = hostileDir();
  const demoDir = join(dataDir, 'demo');
  mkdirSync(demoDir);
  const file = join(demoDir, 'demo.sqlite');
  if (write) write(file);
  else copyFileSync(template, file);
  return { dataDir, demoDir, file };
}

const readOnlySentence = (file: string) =>
  `The local copy at ${file} is on a read-only disk; Quayside can show and export it but cannot sync into it.`;

describe('a local copy on read-only media', () => {
  it('is shown and exported, a sync says it cannot write, nothing changes, and once writable the next sync works', async () => {
    const { dataDir, demoDir, file } = dataFolder();
    const before = sha256(file);
    // File and folder: SQLite can create no -wal or -shm beside it.
    const undo = makeReadOnly(file, demoDir);
    const exportPath = join(tempDir(), 'shipments.csv');
    const { core } = testCore({ dataDir, chooseExportPath: () => Promise.resolve(exportPath) });

    expect(await value<DatabaseHealth>(core, 'data:health')).toEqual({
      path: file,
      state: 'read_only',
      problem: null,
      message: readOnlySentence(file),
      moveAside: 'no',
    });
    expect(await value(core, 'shipments:count', {})).toBe(templateShipments);
    const exported = await value<{ rows: number }>(core, 'export:list', { view: 'shipments' });
    expect(exported.rows).toBe(templateShipments);
    expect(readFileSync(exportPath, 'utf8').trim().split('\r\n')).toHaveLength(templateShipments + 1);

    expect(await syncNow(core)).toMatchObject({ state: 'failed', error: readOnlySentence(file) });
    await core.close();
    undo();
    expect(sha256(file)).toBe(before);

    const again = testCore({ dataDir }).core;
    expect(await value<DatabaseHealth>(again, 'data:health')).toMatchObject({ state: 'ok', message: null });
    expect(await syncNow(again)).toMatchObject({ state: 'idle', error: null });
    expect(await value(again, 'shipments:count', {})).toBe(templateShipments);
    await again.close();
  });

  it('opens read-only when only the file is write-protected (SQLite keeps its -shm in the folder)', async () => {
    const { dataDir, file } = dataFolder();
    makeReadOnly(file);
    const { core } = testCore({ dataDir });
    expect(await value<DatabaseHealth>(core, 'data:health')).toMatchObject({ state: 'read_only' });
    expect(await value(core, 'containers:count', {})).toBeGreaterThan(0);
    expect(await syncNow(core)).toMatchObject({ state: 'failed', error: readOnlySentence(file) });
    await core.close();
  });

  it('with no copy yet in a folder that cannot be written, says so and offers nothing to move', async () => {
    const { dataDir, demoDir, file } = dataFolder(() => {});
    const undo = makeReadOnly(demoDir);
    const { core } = testCore({ dataDir });
    const sentence = `Quayside cannot create its local copy at ${file}: the folder is read-only or protected.`;
    expect(await failure(core, 'shipments:count', {})).toEqual({ code: 'storage', message: sentence });
    expect(await value<DatabaseHealth>(core, 'data:health')).toMatchObject({
      state: 'unavailable',
      problem: 'cannot_create',
      moveAside: 'no',
    });
    expect((await failure(core, 'data:moveAside', {})).code).toBe('storage');
    undo();
    expect(await syncNow(core)).toMatchObject({ state: 'idle', error: null });
    await core.close();
  });
});

const unreadable: {
  name: string;
  write: (file: string) => void;
  problem: DatabaseHealth['problem'];
  sentence: (file: string) => string;
}[] = [
  {
    name: 'a text file',
    write: (file) => writeFileSync(file, 'Shipment list, exported by hand\n'.repeat(40)),
    problem: 'not_a_database',
    sentence: (file) =>
      `The local copy at ${file} is not a Quayside database, or it is damaged. Quayside has not changed it.`,
  },
  {
    name: 'a truncated database',
    write: (file) => {
      copyFileSync(template, file);
      truncateSync(file, Math.floor(statSync(file).size / 2));
    },
    problem: 'not_a_database',
    sentence: (file) =>
      `The local copy at ${file} is not a Quayside database, or it is damaged. Quayside has not changed it.`,
  },
  {
    name: "another program's SQLite file",
    write: (file) => {
      const other = new Database(file);
      other.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')");
      other.close();
    },
    problem: 'not_a_database',
    sentence: (file) =>
      `The local copy at ${file} is not a Quayside database, or it is damaged. Quayside has not changed it.`,
  },
  {
    name: 'a folder in its place',
    write: (file) => {
      mkdirSync(file);
      writeFileSync(join(file, 'inside.txt'), 'kept');
    },
    problem: 'not_a_file',
    sentence: (file) =>
      `There is a folder at ${file}, where Quayside keeps its local copy. Quayside has not changed it.`,
  },
];

describe('a local copy that cannot be opened', () => {
  it.each(unreadable)(
    '$name: one sentence, moved aside on request and kept, then a fresh copy syncs',
    async ({ write, problem, sentence }) => {
      const { dataDir, file } = dataFolder(write);
      const isFolder = statSync(file).isDirectory();
      const before = isFolder ? sha256(join(file, 'inside.txt')) : sha256(file);
      const { core } = testCore({ dataDir });

      const refused = await failure(core, 'shipments:list', {});
      expect(refused).toEqual({ code: 'storage', message: sentence(file) });
      expect(refused.message).not.toMatch(/file is not a database|malformed/);
      expect((await failure(core, 'sync:start', { mode: 'auto' })).message).toBe(sentence(file));
      expect(await value<DatabaseHealth>(core, 'data:health')).toEqual({
        path: file,
        state: 'unavailable',
        problem,
        message: sentence(file),
        moveAside: 'offer',
      });
      // Nothing touched it while it was refused.
      expect(isFolder ? sha256(join(file, 'inside.txt')) : sha256(file)).toBe(before);

      const moved = await value<MoveAsideResult>(core, 'data:moveAside', {});
      expect(moved.movedTo.startsWith(`${file}.unreadable-`)).toBe(true);
      expect(isFolder ? sha256(join(moved.movedTo, 'inside.txt')) : sha256(moved.movedTo)).toBe(before);
      expect(moved.health).toMatchObject({ path: file, state: 'ok', problem: null });
      expect(await syncNow(core)).toMatchObject({ state: 'idle', error: null });
      expect(await value(core, 'shipments:count', {})).toBeGreaterThan(0);
      await core.close();
      expect(existsSync(moved.movedTo)).toBe(true);
    },
  );

  it('a zero-byte file is an empty copy: it opens and the first sync fills it', async () => {
    const { dataDir, file } = dataFolder((f) => writeFileSync(f, ''));
    const { core } = testCore({ dataDir });
    expect(await value<DatabaseHealth>(core, 'data:health')).toMatchObject({ state: 'ok' });
    expect(await value(core, 'shipments:count', {})).toBe(0);
    expect(await syncNow(core)).toMatchObject({ state: 'idle', error: null });
    expect(await value(core, 'shipments:count', {})).toBeGreaterThan(0);
    expect(statSync(file).size).toBeGreaterThan(0);
    await core.close();
  });

  it('a copy from a newer Quayside: update Quayside; moved aside only on explicit request, never overwritten', async () => {
    const { dataDir, file } = dataFolder();
    const future = new Database(file);
    future.pragma('user_version = 99');
    future.close();
    const before = sha256(file);
    const { core } = testCore({ dataDir });
    const sentence = `The local copy at ${file} was written by a newer version of Quayside (schema 99; this version knows ${schemaVersion}); update Quayside to open it. Quayside has not changed it.`;
    expect(await failure(core, 'dashboard:summary')).toEqual({ code: 'storage', message: sentence });
    expect(await value<DatabaseHealth>(core, 'data:health')).toMatchObject({
      state: 'unavailable',
      problem: 'newer_version',
      moveAside: 'on_request',
    });
    // Neither a plain move, a sync nor "delete local data" touches it.
    expect(await failure(core, 'data:moveAside', {})).toMatchObject({
      code: 'invalid_argument',
      message: expect.stringMatching(/newer version of Quayside; update Quayside/),
    });
    expect((await failure(core, 'sync:start', { mode: 'full' })).code).toBe('storage');
    expect((await failure(core, 'data:deleteLocal')).code).toBe('storage');
    expect(sha256(file)).toBe(before);

    const moved = await value<MoveAsideResult>(core, 'data:moveAside', { newerVersion: true });
    expect(sha256(moved.movedTo)).toBe(before);
    expect(await syncNow(core)).toMatchObject({ state: 'idle', error: null });
    await core.close();
  });

  it.skipIf(runningAsRoot)(
    'a copy Quayside may not read (permission denied) is offered to be moved aside',
    async () => {
      const { dataDir, file } = dataFolder();
      const { chmodSync } = await import('node:fs');
      chmodSync(file, 0o000);
      const { core } = testCore({ dataDir });
      expect(await failure(core, 'shipments:count', {})).toEqual({
        code: 'storage',
        message: `Quayside is not allowed to read the local copy at ${file} (permission denied). Quayside has not changed it.`,
      });
      const moved = await value<MoveAsideResult>(core, 'data:moveAside', {});
      chmodSync(moved.movedTo, 0o600);
      expect(moved.health.state).toBe('ok');
      await core.close();
      rmSync(moved.movedTo);
    },
  );
});
