/**
 * One sync stores documents (linked to their shipments and containers, with
 * the label of their type from the schema fetched by id) and email submissions, and keeps each
 * document's file in the `documents` folder beside the database within the size setting; a
 * second sync downloads nothing that did not change; a hostile file name stays in the folder.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentsForRecord } from '../../src/core/store/queries/documents';
import { fetchDocumentFile, OPEN_LIMIT } from '../../src/core/sync/document-download';
import { keepFiles } from '../../src/core/sync/document-files';
import { useHostileProxy, type HostileProxyOptions, type ProxiedRequest } from '../helpers/hostile-proxy';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

const pathOf = (request: ProxiedRequest) => new URL(request.url, 'http://proxy.invalid').pathname;

describe('documents and email submissions', { timeout: 120_000 }, () => {
  const sandbox = useSandbox({ seed: 'documents', shipments: 60 });
  let hostileName: string | null = null;
  const rewrite: HostileProxyOptions['rewrite'] = (request, answer) => {
    if (hostileName === null || !pathOf(request).endsWith('/documents') || answer.status !== 200) return undefined;
    const doc = answer.json as { data: { attributes: Record<string, unknown> }[] };
    for (const d of doc.data) d.attributes.file_name = hostileName;
    return { status: 200, headers: answer.headers, body: doc };
  };
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url, rewrite }));

  it('stores documents with their links, type label and files; a second sync downloads nothing', async () => {
    hostileName = null;
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url });
    try {
      const first = await sync.engine.run({ mode: 'full' });
      expect(first).toMatchObject({ status: 'ok' });
      const { db } = sync;
      const world = sandbox.get().store.world;
      const now = sandbox.get().clock.now();
      const expected = world.documents.filter((d) => d.createdAt <= now);
      expect(db.prepare('SELECT count(*) FROM documents WHERE raw IS NOT NULL').pluck().get()).toBe(expected.length);
      const submissions = world.emailSubmissions.filter((m) => m.createdAt <= now).length;
      expect(db.prepare('SELECT count(*) FROM email_submissions WHERE raw IS NOT NULL').pluck().get()).toBe(
        submissions,
      );
      // Listed on its shipment and on each of its containers, with the type's label.
      const doc = expected[0]!;
      const onShipment = documentsForRecord(db, doc.shipment.id);
      expect(onShipment.map((d) => d.id)).toContain(doc.id);
      const row = onShipment.find((d) => d.id === doc.id)!;
      expect(row.type_label).toBe(
        { bill_of_lading: 'Bill of lading', commercial_invoice: 'Commercial invoice', packing_list: 'Packing list' }[
          doc.documentType
        ] ?? expect.any(String),
      );
      const box = doc.shipment.containers[0]!;
      expect(documentsForRecord(db, box.id).map((d) => d.id)).toContain(doc.id);
      // Every file kept (the demo's are small), byte for byte as served.
      const dir = join(dirname(sync.dbPath), 'documents');
      expect(first.counts.document_file).toBe(expected.length);
      expect(row.file_current).toBe(1);
      const kept = readFileSync(join(dir, row.file_path!));
      expect(kept.subarray(0, 5).toString()).toBe('%PDF-');
      expect(kept.length).toBe(row.size_bytes);
      // Each document came with its presigned link (`links.download`): no request per file.
      expect(proxy.get().requests.filter((r) => pathOf(r).endsWith('/download_url'))).toHaveLength(0);

      proxy.get().requests.length = 0;
      const second = await sync.engine.run({ mode: 'full' });
      expect(second).toMatchObject({ status: 'ok' });
      expect(second.counts.document_file).toBeUndefined();
      expect(proxy.get().requests.filter((r) => pathOf(r).endsWith('/download_url'))).toHaveLength(0);

      // An hour later the stored link has expired: opening asks the API for a fresh one (one request,
      // through the limiter), and the file is fetched from it without the key.
      sandbox.get().advance(3600);
      proxy.get().requests.length = 0;
      const mark = sync.meter.mark();
      const bytes = await fetchDocumentFile(
        {
          db,
          client: sync.client,
          options: { dir, limits: () => ({ maxFileMb: 25, maxTotalMb: 2048 }) },
          keep: (files) => keepFiles(db, dir, files),
        },
        { id: doc.id, file_name: row.file_name, updated_at: row.updated_at, link: row.link },
        'user',
        OPEN_LIMIT,
      );
      expect(bytes).toBe(row.size_bytes);
      const asked = proxy.get().requests.filter((r) => pathOf(r).endsWith('/download_url'));
      expect(asked).toHaveLength(1);
      expect(sync.meter.since(mark).requests).toBe(1);
    } finally {
      sync.close();
    }
  });

  it('keeps files within the size setting: larger ones are left for on demand', async () => {
    hostileName = null;
    const sync = syncOf(sandbox.get(), {
      baseUrl: proxy.get().url,
      documentFiles: { limits: () => ({ maxFileMb: 0, maxTotalMb: 0 }) },
    });
    try {
      const run = await sync.engine.run({ mode: 'full' });
      expect(run).toMatchObject({ status: 'ok' });
      expect(run.counts.document_file).toBeUndefined();
      expect(sync.db.prepare('SELECT count(*) FROM documents WHERE file_path IS NOT NULL').pluck().get()).toBe(0);
      expect(sync.db.prepare('SELECT count(*) FROM documents WHERE raw IS NOT NULL').pluck().get()).toBeGreaterThan(0);
    } finally {
      sync.close();
    }
  });

  it("a link whose connection drops once is tried again, not traded for a fresh link's request", async () => {
    hostileName = null;
    // No file kept by the sync: the test fetches one itself, through a connection that fails.
    const sync = syncOf(sandbox.get(), {
      baseUrl: proxy.get().url,
      documentFiles: { limits: () => ({ maxFileMb: 0, maxTotalMb: 0 }) },
    });
    try {
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const doc = sandbox.get().store.world.documents[0]!;
      const row = documentsForRecord(sync.db, doc.shipment.id).find((d) => d.id === doc.id)!;
      const dir = join(dirname(sync.dbPath), 'documents');
      const fetchFailing = (times: number): typeof fetch => {
        let failures = 0;
        return (input, init) => {
          // As undici fails a request whose kept-alive socket the other side closed.
          if (failures++ < times)
            return Promise.reject(new TypeError('fetch failed', { cause: new Error('other side closed') }));
          return fetch(input, init);
        };
      };
      const fetchWith = (failing: typeof fetch) =>
        fetchDocumentFile(
          {
            db: sync.db,
            client: sync.client,
            options: { dir, limits: () => ({ maxFileMb: 25, maxTotalMb: 2048 }), fetch: failing },
            keep: (files) => keepFiles(sync.db, dir, files),
          },
          { id: doc.id, file_name: row.file_name, updated_at: row.updated_at, link: row.link },
          'background',
          OPEN_LIMIT,
        );
      const linkRequests = () => proxy.get().requests.filter((r) => pathOf(r).endsWith('/download_url')).length;

      proxy.get().requests.length = 0;
      expect(await fetchWith(fetchFailing(1))).toBe(row.size_bytes);
      expect(linkRequests()).toBe(0);

      // Failing twice on the same link, the file comes from a fresh link: one request.
      expect(await fetchWith(fetchFailing(2))).toBe(row.size_bytes);
      expect(linkRequests()).toBe(1);
    } finally {
      sync.close();
    }
  });

  it('a hostile file name from the service never leaves the documents folder', async () => {
    hostileName = '../../../outside\u202e.pdf';
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url });
    try {
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const dir = join(dirname(sync.dbPath), 'documents');
      const names = readdirSync(dir);
      expect(names.length).toBeGreaterThan(0);
      expect(names.every((n) => !n.includes('..') && !n.includes('/') && !n.includes('\u202e'))).toBe(true);
      expect(existsSync(join(dirname(sync.dbPath), '..', 'outside.pdf'))).toBe(false);
    } finally {
      hostileName = null;
      sync.close();
    }
  });

  it('a sync cancelled while files are coming in stops them and leaves no partial file', async () => {
    // Every file answers its first bytes and then nothing more: the three under way hang.
    let hanging = 0;
    let allHanging: () => void = () => {};
    const three = new Promise<void>((done) => (allHanging = done));
    const intercept = (request: ProxiedRequest) => {
      if (!pathOf(request).startsWith('/files/')) return undefined;
      if (++hanging === 3) allHanging();
      return {
        status: 200,
        headers: { 'content-type': 'application/pdf' },
        body: (res: ServerResponse) => {
          res.write('%PDF-1.4\n');
        },
      };
    };
    proxy.get().set({ intercept, rewrite });
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url });
    try {
      const controller = new AbortController();
      const run = sync.engine.run({ mode: 'full', signal: controller.signal });
      await three;
      controller.abort();
      expect(await run).toMatchObject({ status: 'cancelled' });
      const dir = join(dirname(sync.dbPath), 'documents');
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      expect(sync.db.prepare('SELECT count(*) FROM documents WHERE file_path IS NOT NULL').pluck().get()).toBe(0);
    } finally {
      proxy.get().set({ rewrite });
      sync.close();
    }
  });

  // Last of the syncs here: it moves the sandbox's clock on by hours.
  it('a sync that outlasts the download links still fetches every file from the link its page gave', async () => {
    // A first sync at the API's rate limit takes hours; a presigned link lasts 15 minutes. Here
    // every API request moves the service's clock on 16 minutes before it is answered, so a link
    // is good only until the next request. The proxy holds that next request until every file
    // handed out so far has been asked for (waiting on the client, never on time): a client that
    // fetches files as each page comes in goes on; one that left them for the end would need a
    // fresh link (a request) per file, or never finish.
    const handed = new Set<string>();
    const asked = new Set<string>();
    const waiting: (() => void)[] = [];
    const behind = () => [...handed].some((id) => !asked.has(id));
    const intercept = async (request: ProxiedRequest) => {
      if (pathOf(request).startsWith('/files/')) return undefined;
      while (behind()) await new Promise<void>((done) => waiting.push(done));
      sandbox.get().advance(16 * 60);
      return undefined;
    };
    // A file counts as asked for once the service has answered it (its link checked then).
    const handOut: HostileProxyOptions['rewrite'] = (request, answer) => {
      const path = pathOf(request);
      if (path.startsWith('/files/')) {
        asked.add(decodeURIComponent(path.split('/').pop()!));
        if (!behind()) for (const done of waiting.splice(0)) done();
        return undefined;
      }
      const doc = answer.json as { data?: unknown; included?: unknown } | undefined;
      const resources = [doc?.data, doc?.included].flatMap((part) => (Array.isArray(part) ? part : [part]));
      for (const r of resources as { type?: string; id?: string; links?: { download?: string } }[]) {
        if (r?.type === 'document' && r.id && r.links?.download) handed.add(r.id);
      }
      return undefined;
    };
    proxy.get().set({ intercept, rewrite: handOut });
    // A held request waits for files, not for the client's patience.
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url, timeoutMs: 60_000 });
    try {
      proxy.get().requests.length = 0;
      const run = await sync.engine.run({ mode: 'full' });
      expect(run).toMatchObject({ status: 'ok' });
      expect(handed.size).toBeGreaterThan(0);
      expect(proxy.get().requests.filter((r) => pathOf(r).endsWith('/download_url'))).toHaveLength(0);
      const kept = sync.db.prepare('SELECT count(*) FROM documents WHERE file_path IS NOT NULL').pluck().get();
      expect(kept).toBe(sync.db.prepare('SELECT count(*) FROM documents WHERE raw IS NOT NULL').pluck().get());
      expect(run.counts.document_file).toBe(kept);
    } finally {
      proxy.get().set({ rewrite });
      sync.close();
    }
  });
});
