/**
 * The email submissions list, reached from the sidebar: each email's subject,
 * what came of it (processed, or no documents found), its documents count and the shipments its
 * documents belong to; a row opens that shipment, whose page lists the documents. Screenshots.
 */
import { expect, expectRowsLoaded, test, waitForFirstSync } from '../fixtures';

test('email submissions are listed with their status and shipments, and a row opens its shipment', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  const all = await host.core.handlers['emailSubmissions:list']({ filters: {}, page: { limit: 100 } });
  const count = await host.core.handlers['emailSubmissions:count']({ filters: {} });
  const withoutDocuments = all.rows.filter((r) => r.status === 'no_documents');
  expect(withoutDocuments.length).toBeGreaterThan(0);

  await page.goto(host.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Email submissions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Email submissions' })).toBeVisible();
  const grid = page.getByRole('grid', { name: 'Email submissions' });
  await expectRowsLoaded(grid);
  await expect(page.getByRole('status', { name: 'Row count' })).toHaveText(`${count} email submissions`);
  // Newest first: the first row is the newest email, with its status and its shipment's BL.
  const newest = [...all.rows].sort((a, b) => (b.sentAt ?? '').localeCompare(a.sentAt ?? ''))[0]!;
  const first = grid.locator('[role="row"][data-index="0"]');
  await expect(first).toContainText(newest.subject!);
  await expect(first).toContainText(newest.status === 'processed' ? 'Processed' : 'No documents found');
  for (const s of newest.shipments) await expect(first).toContainText(s.billOfLading!);
  await expect(grid.getByRole('row').filter({ hasText: 'No documents found' }).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('email-submissions.png') });

  // Filtered to those that brought documents: the count drops by the ones that did not.
  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menuitem', { name: 'Documents' }).click();
  await page.getByRole('dialog', { name: 'Filter: Documents' }).getByText('Brought documents').click();
  await expect(page.getByRole('status', { name: 'Row count' })).toHaveText(
    `${count - withoutDocuments.length} of ${count} email submissions`,
  );
  await page.keyboard.press('Escape');

  // A row opens the shipment its documents belong to, whose page lists them.
  const processed = all.rows.find((r) => r.shipments.length > 0 && r.status === 'processed')!;
  await expectRowsLoaded(grid);
  await grid.getByRole('row').filter({ hasText: processed.subject! }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(processed.shipments[0]!.billOfLading!);
  await expect(
    page.getByRole('list', { name: 'Documents of this shipment' }).getByText(`Email: ${processed.subject!}`),
  ).toHaveCount(processed.documentsCount);
});
