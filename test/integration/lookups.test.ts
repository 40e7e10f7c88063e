/**
 * The reference records a view looks up by id (`<name>:get`, one channel per entry of
 * src/shared/lookups.ts, each read as its descriptor's `lookup` says): local first, by id or by
 * the code a forwarder knows (UN/LOCODE, SCAC); one the service does not have either is a
 * sentence, not a crash.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ShipmentRow } from '../../src/shared/rows';
import type { LookupRecord, ShipmentDetail } from '../../src/shared/types';
import type { Page } from '../../src/shared/views';
import { failure, syncNow, testCore, value } from '../helpers/core';

describe('lookups by id', () => {
  const { core } = testCore();
  afterAll(() => core.close());

  it('finds a port by UN/LOCODE, a carrier by SCAC and the terminal a shipment names, by id', async () => {
    expect((await syncNow(core, 'full')).state).toBe('idle');
    expect(await value<LookupRecord>(core, 'ports:get', { id: 'uslax' })).toMatchObject({
      type: 'port',
      title: 'Los Angeles',
    });
    const carrier = await value<LookupRecord>(core, 'shippingLines:get', { id: 'MSCU' });
    expect(carrier).toMatchObject({ type: 'shipping_line', attributes: { scac: 'MSCU' } });
    expect(carrier.title).toMatch(/Mediterranean/);

    const page = await value<Page<ShipmentRow>>(core, 'shipments:list', { page: { limit: 100 } });
    const details = await Promise.all(page.rows.map((r) => value<ShipmentDetail>(core, 'shipments:get', { id: r.id })));
    const terminal = details.find((d) => d.terminal?.name)!.terminal!;
    const record = await value<LookupRecord>(core, 'terminals:get', { id: terminal.id });
    expect(record).toMatchObject({ id: terminal.id, type: 'terminal', title: terminal.name });
    // A terminal is found by id only: its name is not a key.
    expect((await failure(core, 'terminals:get', { id: terminal.name! })).code).toBe('not_found');
  });

  it('says a record the service does not have either is not here, naming what was asked for', async () => {
    const missing = await failure(core, 'parties:get', { id: '00000000-0000-4000-8000-000000000000' });
    expect(missing).toMatchObject({ code: 'not_found', message: 'This party is not in the local data (yet).' });
    const port = await failure(core, 'ports:get', { id: 'ZZZZZ' });
    expect(port.message).toBe('This port is not in the local data (yet).');
  });
});
