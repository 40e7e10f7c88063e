/**
 * Documents in the views: a shipment's and a container's documents, with their type and whether
 * the file is kept here; Open hands the kept file to the computer's viewer (recorded by the test
 * host in place of Electron's shell.openPath), fetching it first when the size setting left it
 * for on demand. A file that is not what its name says is only shown in its folder. Screenshots
 * of both pages.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { dirname, join } from 'node:path';
import type { DocumentInfo } from '../../../src/shared/documents';
import { expect, ipcAnswer, test, waitForFirstSync } from '../fixtures';
import { startTestHost } from '../host/server';

test('documents on the shipment and container pages open with the viewer, fetched on demand when not kept', async ({
  page,
}, testInfo) => {
  const opened: string[] = [];
  const host = await startTestHost({
    dataDir: testInfo.outputPath('data'),
    openPath: (path) => {
      opened.push(path);
      return Promise.resolve('');
    },
  });
  try {
    // Before the session opens: no file is kept by the sync, every one is fetched when opened.
    await host.core.handlers['settings:update']({ documentFiles: { maxFileMb: 0, maxTotalMb: 2048 } });
    await waitForFirstSync(host);
    const shipments = await host.core.handlers['shipments:list']({ filters: {}, page: { limit: 100 } });
    let found: { id: string; docs: DocumentInfo[] } | null = null;
    for (const row of shipments.rows) {
      const docs = await host.core.handlers['documents:forRecord']({ id: row.id });
      if (docs.length >= 2) {
        found = { id: row.id, docs };
        break;
      }
    }
    expect(found).not.toBeNull();
    const { id, docs } = found!;
    expect(docs.every((d) => !d.kept)).toBe(true);

    await page.goto(`${host.url}#/shipments/${id}`);
    const card = page.getByRole('region', { name: 'Documents' });
    const list = card.getByRole('list', { name: 'Documents of this shipment' });
    await expect(list.getByRole('listitem')).toHaveCount(docs.length);
    const first = docs[0]!;
    const item = list.getByRole('listitem').first();
    await expect(item).toContainText(first.typeLabel!);
    await expect(item).toContainText('Not kept here: downloaded when opened');

    const answer = ipcAnswer(page, 'documents:open');
    await item.getByRole('button', { name: new RegExp(`^Open ${first.typeLabel}`) }).click();
    expect((await (await answer).json()) as unknown).toMatchObject({
      ok: true,
      value: { opened: true, fetched: true },
    });
    await expect(item.getByRole('status')).toHaveText('Downloaded and opened.');
    await expect(item).toContainText('Kept on this computer');
    // The viewer was handed the file in the documents folder beside the demo database.
    expect(opened).toHaveLength(1);
    expect(dirname(opened[0]!)).toBe(join(testInfo.outputPath('data'), 'demo', 'documents'));
    expect(existsSync(opened[0]!)).toBe(true);
    expect(readFileSync(opened[0]!).subarray(0, 5).toString()).toBe('%PDF-');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('shipment-documents.png') });

    // The same document on its container's page.
    const detail = await host.core.handlers['shipments:get']({ id });
    const box = detail.containers[0]!.container;
    await page.goto(`${host.url}#/containers/${box.id}`);
    const boxList = page.getByRole('list', { name: 'Documents of this container' });
    await expect(boxList.getByRole('listitem').filter({ hasText: first.name! })).toContainText('Kept on this computer');
    await page.getByRole('region', { name: 'Documents' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('container-documents.png') });
  } finally {
    await host.close();
  }
});

test('a file that is not what it says is shown in its folder, never opened; a failed download says why', async ({
  page,
}, testInfo) => {
  const opened: string[] = [];
  const shown: string[] = [];
  const dataDir = testInfo.outputPath('data');
  const host = await startTestHost({
    dataDir,
    openPath: (path) => {
      opened.push(path);
      return Promise.resolve('');
    },
    showItemInFolder: (path) => void shown.push(path),
  });
  try {
    await waitForFirstSync(host);
    const shipments = await host.core.handlers['shipments:list']({ filters: {}, page: { limit: 100 } });
    let found: { id: string; docs: DocumentInfo[] } | null = null;
    for (const row of shipments.rows) {
      const docs = await host.core.handlers['documents:forRecord']({ id: row.id });
      if (docs.length >= 2 && docs.every((d) => d.kept)) {
        found = { id: row.id, docs };
        break;
      }
    }
    expect(found).not.toBeNull();
    const { id, docs } = found!;
    // The first document's kept PDF is turned on disk into a Windows program; the second's file
    // is gone after a download that failed, as a sync records it.
    const folder = join(dataDir, 'demo', 'documents');
    const disguised = readdirSync(folder).find((name) => name.startsWith(`${docs[0]!.id}-`))!;
    writeFileSync(join(folder, disguised), Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(60)]));
    const dbFile = readdirSync(join(dataDir, 'demo')).find((name) => name.endsWith('.sqlite'))!;
    const db = new Database(join(dataDir, 'demo', dbFile));
    db.prepare(
      'UPDATE documents SET file_path = NULL, file_problem = ?, file_failures = 1, file_retry_at = ? WHERE id = ?',
    ).run(
      'The file could not be downloaded: the connection was cut off after 1.0 MB.',
      Date.parse('2030-01-02T09:30:00Z'),
      docs[1]!.id,
    );
    db.close();

    await page.goto(`${host.url}#/shipments/${id}`);
    const list = page.getByRole('list', { name: 'Documents of this shipment' });
    const first = list.getByRole('listitem').filter({ hasText: docs[0]!.name! });
    await first.getByRole('button', { name: /^Open / }).click();
    await expect(first).toContainText(
      'Quayside keeps this file but will not open it: its contents are a program, not a document.',
    );
    await first.getByRole('button', { name: /^Show .* in folder$/ }).click();
    await expect(first.getByRole('status')).toHaveText('Shown in its folder.');
    expect(opened).toEqual([]);
    expect(shown).toEqual([join(folder, disguised)]);

    const second = list.getByRole('listitem').filter({ hasText: docs[1]!.name! });
    await expect(second).toContainText('Not kept here: downloaded when opened');
    await expect(second).toContainText(
      'The file could not be downloaded: the connection was cut off after 1.0 MB. The next sync tries again after',
    );
    await page.getByRole('region', { name: 'Documents' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('documents-refused-light.png') });
    await host.core.handlers['settings:update']({ theme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByRole('region', { name: 'Documents' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('documents-refused-dark.png') });
  } finally {
    await host.close();
  }
});
