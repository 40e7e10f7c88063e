/**
 * Document files from a hostile service and its storage, through the real core, the CLI and the
 * sync engine: programs in disguise are kept as data and never handed to the viewer; broken,
 * endless and lying downloads stop at their limits with one sentence on the document and retry
 * later; names of any script fit the disk; links lead only to https (or this computer). Every
 * case ends with the next sync on the same database working.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, sep } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index';
import { exitCodes } from '../../src/cli/exit-codes';
import { OPEN_MAX_BYTES } from '../../src/core/sync/document-download';
import { documentsDirOf } from '../../src/core/sync/document-files';
import { NAME_MAX_BYTES, safeFileName } from '../../src/core/sync/document-names';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import type { DocumentInfo, DocumentOpened } from '../../src/shared/documents';
import { capture } from '../helpers/capture';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { useHostileProxy, type ProxiedRequest, type ProxyAnswer } from '../helpers/hostile-proxy';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

const MB = 1024 * 1024;
const pathOf = (request: ProxiedRequest) => new URL(request.url, 'http://proxy.invalid').pathname;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< >>\nendobj\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), Buffer.alloc(120, 0)]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(64, 0)]);

/** What the hostile service says of one document, and how its storage answers for the file. */
interface Hostile {
  name?: string;
  /** The size its attributes declare (`file_size_bytes`). */
  declared?: number | null;
  /** Its `links.download`, given the proxy's origin. */
  link?: (origin: string) => string;
  /** The answer for its file (the sandbox's own file when absent). */
  file?: () => ProxyAnswer;
}

/** A body of `total` bytes (Infinity: without end) starting with `head`, written as the reader takes it. */
function streamed(total: number, head: Buffer, sent: { bytes: number } = { bytes: 0 }) {
  return (res: ServerResponse) => {
    const filler = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (sent.bytes < total && !res.destroyed) {
        const chunk = sent.bytes === 0 ? Buffer.concat([head, filler.subarray(head.length)]) : filler;
        const part = chunk.subarray(0, Math.min(chunk.length, total - sent.bytes));
        sent.bytes += part.length;
        if (!res.write(part)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
}

const bytesOf = (body: Buffer) => (): ProxyAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/octet-stream' },
  body: (res) => res.end(body),
});

describe('document files from a hostile service', { timeout: 120_000 }, () => {
  // 20 shipments bring 29 documents; a limit no test here can spend.
  const sandbox = useSandbox({
    seed: 'documents-hostile',
    shipments: 20,
  });
  const plan = new Map<string, Hostile>();
  const routes = new Map<string, () => ProxyAnswer>();
  const proxy = useHostileProxy(() => ({
    upstream: sandbox.get().url,
    intercept: (request) => {
      const path = pathOf(request);
      const own = routes.get(path);
      if (own) return own();
      if (!path.startsWith('/files/documents/')) return undefined;
      return plan.get(decodeURIComponent(path.split('/').pop()!))?.file?.();
    },
    // Every document, wherever it comes (its list or another's include), as the plan says.
    rewrite: (_request, answer) => {
      const doc = answer.json as { data?: unknown; included?: unknown } | undefined;
      if (!doc || typeof doc !== 'object' || plan.size === 0) return undefined;
      const resources = [doc.data, doc.included].flatMap((part) => (Array.isArray(part) ? part : [part]));
      for (const r of resources as {
        type?: string;
        id?: string;
        attributes?: Record<string, unknown>;
        links?: Record<string, unknown>;
      }[]) {
        const hostile = r?.type === 'document' && r.id ? plan.get(r.id) : undefined;
        if (!hostile) continue;
        if (hostile.name !== undefined) r.attributes!.file_name = hostile.name;
        if (hostile.declared !== undefined) r.attributes!.file_size_bytes = hostile.declared;
        if (hostile.link) r.links = { ...r.links, download: hostile.link(proxy.get().origin) };
      }
      return { status: answer.status, headers: answer.headers, body: doc };
    },
  }));
  const documents = () => {
    const now = sandbox.get().clock.now();
    return sandbox.get().store.world.documents.filter((d) => d.createdAt <= now);
  };
  const fileRequests = (id: string) =>
    proxy.get().requests.filter((r) => pathOf(r) === `/files/documents/${encodeURIComponent(id)}`).length;
  const setPlan = (entries: [string, Hostile][]) => {
    plan.clear();
    for (const [id, hostile] of entries) plan.set(id, hostile);
  };

  it('keeps programs in disguise as data: never handed to the viewer, only shown in their folder', async () => {
    const docs = documents();
    const [exe, bat, desktop, elf, scan, pdf, swapped] = docs;
    setPlan([
      [exe!.id, { name: 'invoice.pdf.exe', file: bytesOf(EXE) }],
      [bat!.id, { name: 'run.bat', file: bytesOf(Buffer.from('@echo off\r\nformat c:\r\n')) }],
      [desktop!.id, { name: 'x.desktop', file: bytesOf(Buffer.from('[Desktop Entry]\nExec=sh -c evil\n')) }],
      [elf!.id, { name: 'bill-of-lading.pdf', file: bytesOf(ELF) }],
      [scan!.id, { name: 'scan', file: bytesOf(PNG) }],
      [pdf!.id, { name: 'arrival notice.pdf', file: bytesOf(PDF) }],
      [swapped!.id, { name: 'packing list.pdf', file: bytesOf(PDF) }],
    ]);
    const opened: string[] = [];
    const shown: string[] = [];
    const { core } = testCore({
      openPath: (path) => {
        opened.push(path);
        return Promise.resolve('');
      },
      showItemInFolder: (path) => void shown.push(path),
    });
    try {
      await value(core, 'profiles:add', { name: 'Hostile Ltd', apiKey: DEMO_API_KEY, baseUrl: proxy.get().url });
      expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
      const info = async (id: string) => {
        const list = await value<DocumentInfo[]>(core, 'documents:forRecord', {
          id: docs.find((d) => d.id === id)!.shipment.id,
        });
        return list.find((d) => d.id === id)!;
      };
      for (const doc of [exe!, bat!, desktop!, elf!]) {
        const listed = await info(doc.id);
        expect(listed.kept).toBe(true);
        expect(listed.keptAsData).toMatch(/^Quayside keeps this file but will not open it: .*Show in folder/);
        const answer = await value<DocumentOpened>(core, 'documents:open', { id: doc.id });
        expect(answer.opened).toBe(false);
        expect(answer.notOpened).toMatch(/will not open it/);
        await value(core, 'documents:showInFolder', { id: doc.id });
      }
      expect((await value<DocumentOpened>(core, 'documents:open', { id: exe!.id })).notOpened).toContain(
        'its contents are a program, not a document',
      );
      expect((await value<DocumentOpened>(core, 'documents:open', { id: elf!.id })).notOpened).toContain(
        'its contents are a program',
      );
      // Nothing was handed to the viewer; each was shown in the documents folder, under .bin.
      expect(opened).toEqual([]);
      expect(shown).toHaveLength(4);
      const dir = dirname(shown[0]!);
      expect(shown.every((p) => dirname(p) === dir && p.endsWith('.bin'))).toBe(true);
      expect(readdirSync(dir).filter((n) => /\.(exe|bat|desktop|cmd|sh)$/i.test(n))).toEqual([]);

      // A name with no type whose bytes are a PNG opens as one; a real PDF opens as itself.
      expect((await info(scan!.id)).keptAsData).toBeNull();
      expect(await value(core, 'documents:open', { id: scan!.id })).toEqual({
        opened: true,
        fetched: false,
        notOpened: null,
      });
      expect(opened.at(-1)).toMatch(/-scan\.png$/);
      expect(await value(core, 'documents:open', { id: pdf!.id })).toMatchObject({ opened: true });
      expect(opened.at(-1)).toMatch(/-arrival notice\.pdf$/);

      // A kept .pdf whose bytes were changed on disk into a program is checked again at open.
      const swappedPath = join(
        dir,
        readdirSync(dir).find((n) => n.endsWith('-packing list.pdf'))!,
      );
      writeFileSync(swappedPath, EXE);
      const refused = await value<DocumentOpened>(core, 'documents:open', { id: swapped!.id });
      expect(refused).toMatchObject({ opened: false, notOpened: expect.stringContaining('a program') });
      expect(opened).toHaveLength(2);

      // The next sync on the same database works, and downloads nothing again.
      const before = proxy.get().requests.length;
      expect(await syncNow(core, 'full')).toMatchObject({ state: 'idle', error: null });
      expect(
        proxy
          .get()
          .requests.slice(before)
          .filter((r) => pathOf(r).startsWith('/files/')),
      ).toEqual([]);
    } finally {
      await core.close();
    }
  });

  it('opening a file of no document type that was not kept fetches it as data and does not open it', async () => {
    const [doc] = documents();
    setPlan([[doc!.id, { name: 'customs.pdf.scr', file: bytesOf(PDF) }]]);
    const opened: string[] = [];
    const { core } = testCore({ openPath: (path) => (opened.push(path), Promise.resolve('')) });
    try {
      await value(core, 'profiles:add', { name: 'Hostile Ltd', apiKey: DEMO_API_KEY, baseUrl: proxy.get().url });
      await value(core, 'settings:update', { documentFiles: { maxFileMb: 0, maxTotalMb: 2048 } });
      expect(await syncNow(core, 'full')).toMatchObject({ error: null });
      const answer = await value<DocumentOpened>(core, 'documents:open', { id: doc!.id });
      expect(answer).toMatchObject({ opened: false, fetched: true });
      expect(answer.notOpened).toMatch(/^Quayside keeps this file but will not open it: .scr files are not among/);
      expect(opened).toEqual([]);
    } finally {
      await core.close();
    }
  });

  it('a download cut off or over the limit fails on its document, not the sync: no partial file, retried later', async () => {
    const docs = documents();
    const [cut, huge, fine] = docs;
    let broken = true;
    setPlan([
      [
        cut!.id,
        {
          declared: 3 * MB,
          file: () =>
            broken
              ? {
                  status: 200,
                  headers: { 'content-length': String(3 * MB) },
                  body: (res) => res.write(Buffer.concat([PDF, Buffer.alloc(MB)]), () => res.socket?.destroy()),
                }
              : bytesOf(PDF)(),
        },
      ],
      // 30 MB with no size declared anywhere, past the 25 MB kept for offline use.
      [
        huge!.id,
        { declared: null, file: () => (broken ? { status: 200, body: streamed(30 * MB, PDF) } : bytesOf(PDF)()) },
      ],
    ]);
    const db = join(tempDir(), 'cli.sqlite');
    const folder = join(dirname(db), 'documents');
    // A part left by a process that died mid-file.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const leftover = join(folder, `.${dead}-0123456789ab.part`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(leftover, Buffer.alloc(MB));
    const cli = async () => {
      const out = capture();
      const err = capture();
      process.env.T49_API_TOKEN = DEMO_API_KEY;
      try {
        const code = await runCli(['sync', '--db', db, '--base-url', proxy.get().url, '--json'], {
          out: out.stream,
          err: err.stream,
        });
        return { code, out: out.text(), err: err.text() };
      } finally {
        delete process.env.T49_API_TOKEN;
      }
    };
    const started = Date.now();
    const first = await cli();
    expect(first.err).not.toMatch(/ERR_STREAM|\n\s+at /);
    expect(first.code).toBe(exitCodes.ok);
    expect(JSON.parse(first.out)).toMatchObject({ status: 'ok' });
    expect(existsSync(leftover)).toBe(false);
    expect(readdirSync(folder).filter((n) => n.endsWith('.part'))).toEqual([]);
    const rows = () => {
      const handle = new Database(db, { readonly: true });
      try {
        return handle.prepare('SELECT id, file_path, file_problem, file_retry_at FROM documents').all() as {
          id: string;
          file_path: string | null;
          file_problem: string | null;
          file_retry_at: number | null;
        }[];
      } finally {
        handle.close();
      }
    };
    const byId = (id: string) => rows().find((r) => r.id === id)!;
    // The sentence names the bytes the reader took before the error, which may be fewer than
    // the server wrote (a stream that errors drops what it had queued), never more.
    const cutRow = byId(cut!.id);
    expect(cutRow.file_path).toBeNull();
    const said = /^The file could not be downloaded: the connection was cut off after (\d+ KB|\d+\.\d MB)\.$/.exec(
      cutRow.file_problem ?? '',
    );
    expect(said, cutRow.file_problem ?? 'no problem recorded').not.toBeNull();
    const [amount, unit] = said![1]!.split(' ');
    expect(Number(amount) * (unit === 'MB' ? MB : 1024)).toBeLessThanOrEqual(PDF.length + MB + 0.05 * MB);
    expect(byId(huge!.id)).toMatchObject({
      file_path: null,
      file_problem: 'The file is larger than the 25 MB kept for offline use; it is downloaded when opened.',
    });
    // Tried again after a quarter of an hour, not at every sync.
    for (const id of [cut!.id, huge!.id]) {
      expect(byId(id).file_retry_at).toBeGreaterThanOrEqual(started + 15 * 60_000);
      expect(byId(id).file_retry_at).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    }
    expect(byId(fine!.id).file_path).not.toBeNull();

    const asked = fileRequests(cut!.id) + fileRequests(huge!.id);
    expect((await cli()).code).toBe(exitCodes.ok);
    expect(fileRequests(cut!.id) + fileRequests(huge!.id)).toBe(asked);

    // Once their wait is over and storage behaves, both are kept and their problems gone.
    broken = false;
    const handle = new Database(db);
    handle.prepare('UPDATE documents SET file_retry_at = ? WHERE file_problem IS NOT NULL').run(Date.now() - 1);
    handle.close();
    expect((await cli()).code).toBe(exitCodes.ok);
    for (const id of [cut!.id, huge!.id])
      expect(byId(id)).toMatchObject({ file_problem: null, file_path: expect.any(String) });
  });

  it('the size limits count bytes received: documents that declare 1 byte and send 5 MB stay within the total', async () => {
    const docs = documents();
    expect(docs.length).toBeGreaterThanOrEqual(29);
    setPlan(
      docs.slice(0, 29).map((d) => [d.id, { declared: 1, file: () => ({ status: 200, body: streamed(5 * MB, PDF) }) }]),
    );
    const sync = syncOf(sandbox.get(), {
      baseUrl: proxy.get().url,
      documentFiles: { limits: () => ({ maxFileMb: 25, maxTotalMb: 10 }) },
    });
    try {
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const folder = join(dirname(sync.dbPath), 'documents');
      const onDisk = readdirSync(folder).reduce((sum, n) => sum + statSync(join(folder, n)).size, 0);
      expect(onDisk).toBeLessThanOrEqual(10 * MB);
      expect(sync.db.prepare('SELECT coalesce(sum(file_bytes), 0) FROM documents').pluck().get()).toBe(onDisk);
      // Files under way share the room as their bytes come: at most two whole files fit, each
      // kept whole, and every other one says why it is not kept.
      const kept = sync.db.prepare('SELECT file_bytes FROM documents WHERE file_path IS NOT NULL').pluck().all();
      expect(kept.length).toBeLessThanOrEqual(2);
      expect(kept.every((bytes) => bytes === 5 * MB)).toBe(true);
      const full = sync.db
        .prepare('SELECT count(*) FROM documents WHERE file_problem = ?')
        .pluck()
        .get('The documents kept for offline use reached their 10 MB limit; this file is downloaded when opened.');
      expect(full).toBe(29 - kept.length);
      // The next sync on the same database works.
      expect(await sync.engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
    } finally {
      sync.close();
    }
  });

  it('names in any script are cut by bytes on whole characters, keep their type, and keep their file', async () => {
    const [cjk, emoji, marks] = documents();
    const names = {
      cjk: `${'貨物到着通知書の写し'.repeat(8).slice(0, 73)}.pdf`,
      emoji: `${'🚢👩🏽‍✈️📦'.repeat(30)}.pdf`,
      marks: `${'é'.normalize('NFD').repeat(120)}.pdf`,
    };
    setPlan([
      [cjk!.id, { name: names.cjk }],
      [emoji!.id, { name: names.emoji }],
      [marks!.id, { name: names.marks }],
    ]);
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url });
    try {
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const paths = sync.db
        .prepare('SELECT file_path FROM documents WHERE id IN (?, ?, ?)')
        .pluck()
        .all(cjk!.id, emoji!.id, marks!.id) as string[];
      expect(paths).toHaveLength(3);
      for (const name of paths) {
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(NAME_MAX_BYTES);
        expect(name.endsWith('.pdf')).toBe(true);
        expect(name).not.toMatch(/\p{Cs}/u);
        expect(existsSync(join(dirname(sync.dbPath), 'documents', name))).toBe(true);
      }
      expect(paths.find((p) => p.includes('貨物'))).toMatch(/^[0-9a-f-]+-(貨物到着通知書の写し)+[^.]*\.pdf$/);
      // No emoji sequence split: the kept stem is whole sequences of the three.
      expect(paths.find((p) => p.includes('🚢'))).toMatch(/^[0-9a-f-]+-(🚢👩🏽‍✈️📦)+(🚢|🚢👩🏽‍✈️)?\.pdf$/u);
      // Combining marks kept with their letter (NFC: é is one character).
      expect(paths.find((p) => p.includes('é'))).toMatch(/^[0-9a-f-]+-é+\.pdf$/);
      const before = proxy.get().requests.length;
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      expect(
        proxy
          .get()
          .requests.slice(before)
          .filter((r) => pathOf(r).startsWith('/files/')),
      ).toEqual([]);
    } finally {
      sync.close();
    }
    // Every name, whatever it holds, is one bounded name with a document type or .bin.
    for (const name of [names.cjk, names.emoji, names.marks, 'a'.repeat(400), '\u202e.pdf', '..', '../../x.pdf']) {
      const kept = safeFileName('id', name, { ext: 'pdf' });
      expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(NAME_MAX_BYTES);
      expect(kept).toMatch(/^id-[^/\\\u202e]+\.pdf$/);
    }
    expect(safeFileName('id', 'invoice.pdf.exe', { data: 'x' })).toBe('id-invoice.pdf.exe.bin');
  });

  it('opening a document whose link never ends stops at the open limit with a sentence about opening', async () => {
    const [doc] = documents();
    const sent = { bytes: 0 };
    setPlan([[doc!.id, { file: () => ({ status: 200, body: streamed(Infinity, PDF, sent) }) }]]);
    const { core, dataDir } = testCore({ openPath: () => Promise.resolve('') });
    try {
      await value(core, 'profiles:add', { name: 'Hostile Ltd', apiKey: DEMO_API_KEY, baseUrl: proxy.get().url });
      await value(core, 'settings:update', { documentFiles: { maxFileMb: 0, maxTotalMb: 2048 } });
      expect(await syncNow(core, 'full')).toMatchObject({ error: null });
      const refused = await failure(core, 'documents:open', { id: doc!.id });
      expect(refused.message).toBe(
        `This document's file is larger than ${OPEN_MAX_BYTES / MB} MB, the most Quayside downloads to open a document; it was not opened.`,
      );
      // Bounded by what was read (the sockets' buffers aside), and nothing left in the folder.
      expect(sent.bytes).toBeLessThan(OPEN_MAX_BYTES + 16 * MB);
      const files = readdirSync(dataDir, { recursive: true }).map(String);
      expect(files.filter((name) => name.includes(`${sep}documents${sep}`))).toEqual([]);
    } finally {
      await core.close();
    }
  });

  describe('links lead only where documents live', () => {
    let elsewhere: Server;
    let elsewhereHits = 0;
    beforeAll(async () => {
      elsewhere = createServer((_req, res) => {
        elsewhereHits++;
        res.end(PDF);
      });
      await new Promise<void>((done) => elsewhere.listen(0, '127.0.0.1', done));
    });
    afterAll(() => new Promise<void>((done) => elsewhere.close(() => done())));

    it('refuses plain http elsewhere, redirects to http and redirect chains; follows a redirect within its origin', async () => {
      const [plainHttp, toHttp, loop, within, fresh] = documents();
      const other = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
      let loops = 0;
      routes.set('/hostile/loop', () => (loops++, { status: 302, headers: { location: '/hostile/loop' } }));
      routes.set('/hostile/to-http', () => ({ status: 307, headers: { location: `${other}/file.pdf` } }));
      routes.set('/hostile/within', () => ({ status: 301, headers: { location: '/hostile/file' } }));
      routes.set('/hostile/file', bytesOf(PDF));
      // The fresh link the API gives for a document whose own link failed is held to the same rule.
      routes.set(`/v2/documents/${fresh!.id}/download_url`, () => ({
        status: 200,
        body: { download_url: 'http://documents.example.com/file.pdf' },
      }));
      setPlan([
        [plainHttp!.id, { link: () => 'http://documents.example.com/file.pdf' }],
        [toHttp!.id, { link: (origin) => `${origin}/hostile/to-http` }],
        [loop!.id, { link: (origin) => `${origin}/hostile/loop` }],
        [within!.id, { link: (origin) => `${origin}/hostile/within` }],
        [fresh!.id, { link: () => 'ftp://documents.example.com/file.pdf' }],
      ]);
      // Every request the sync makes goes to this computer: the refused links were never fetched.
      const hosts = new Set<string>();
      const watched: typeof fetch = (input, init) => {
        hosts.add(new URL(input instanceof Request ? input.url : String(input)).hostname);
        return fetch(input, init);
      };
      const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url, documentFiles: { fetch: watched } });
      try {
        expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
        const problem = (id: string) =>
          sync.db.prepare('SELECT file_problem FROM documents WHERE id = ?').pluck().get(id) as string | null;
        // A link on plain http elsewhere is never followed: the API's fresh link (this computer) is.
        expect(problem(plainHttp!.id)).toBeNull();
        expect(
          proxy.get().requests.filter((r) => pathOf(r) === `/v2/documents/${plainHttp!.id}/download_url`),
        ).toHaveLength(1);
        expect(problem(toHttp!.id)).toBe('The file could not be downloaded: it was redirected to plain http.');
        expect(problem(loop!.id)).toBe('The file could not be downloaded: its link redirected more than 3 times.');
        expect(problem(fresh!.id)).toBe('The file could not be downloaded: its link is plain http, not https.');
        expect(loops).toBe(4);
        expect(elsewhereHits).toBe(0);
        expect([...hosts]).toEqual(['127.0.0.1']);
        expect(problem(within!.id)).toBeNull();
        const kept = sync.db.prepare('SELECT file_path FROM documents WHERE id = ?').pluck().get(within!.id) as string;
        expect(readFileSync(join(dirname(sync.dbPath), 'documents', kept))).toEqual(PDF);
        expect(await sync.engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
      } finally {
        sync.close();
        routes.clear();
      }
    });
  });

  it('a database reached through a symlink keeps its documents beside its real file', () => {
    const real = join(tempDir(), 'real', 'quayside.sqlite');
    mkdirSync(dirname(real), { recursive: true });
    writeFileSync(real, '');
    const link = join(tempDir(), 'link.sqlite');
    symlinkSync(real, link);
    expect(documentsDirOf(link)).toBe(join(realpathSync(dirname(real)), 'documents'));
  });
});
