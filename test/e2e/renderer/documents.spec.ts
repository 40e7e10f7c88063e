/**
 * Issue 15 item 2 in the views: a shipment's and a container's documents, with their type and
 * whether the file is kept here; Open hands the kept file to the computer's viewer (recorded by
 * the test host in place of Electron's shell.openPath), fetching it first when the size setting
 * left it for on demand. Screenshots of both pages.
 */
import { existsSync, readFileSync } from 'node:fs';
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
