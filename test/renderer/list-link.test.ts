import { render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { containersList } from '../../src/renderer/src/lib/lists';
import ListView from '../../src/renderer/src/views/ListView.svelte';
import { contract, type ArgOf } from '../../src/shared/ipc';
import { Refusal, bridge } from './bridge';

// The fake main checks each list call against the contract, as dispatch does: what the contract
// refuses comes back as invalid_argument and the list shows its error.
// `count` answers the filtered count; the whole list holds `whole` (the count without filters).
function answerContainers(count: number, whole = 240): void {
  const checked = <C extends 'containers:list' | 'containers:count'>(channel: C, arg: ArgOf<C>) => {
    const parsed = contract[channel].args.safeParse(arg);
    if (!parsed.success) throw new Refusal({ code: 'invalid_argument', message: `Invalid argument for ${channel}.` });
  };
  bridge.answer('containers:list', (arg) => {
    checked('containers:list', arg);
    return { rows: [], next: null };
  });
  bridge.answer('containers:count', (arg) => {
    checked('containers:count', arg);
    return Object.keys(arg.filters ?? {}).length === 0 ? whole : count;
  });
  bridge.answer('filters:options', () => ({
    carriers: [{ value: 'MAEU', label: 'Maersk', count: 2 }],
    portsOfLading: [],
    portsOfDischarge: [],
    destinations: [],
    terminals: [],
    customers: [],
    tags: [],
    holdTypes: [],
    failedReasons: [],
  }));
}

// The list view as App renders it for containers (the generic component, instantiated).
const ContainersView = ListView<'containers'>;

function followLink(hash: string): void {
  window.location.hash = hash;
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

const linkTo = (filters: unknown, sort?: string) =>
  `#/containers?filters=${encodeURIComponent(JSON.stringify(filters))}${sort ? `&sort=${sort}` : ''}`;

beforeEach(() => {
  localStorage.clear();
  followLink('#/containers');
});

describe('a list opened from a link', () => {
  it('takes the filters and sort a dashboard tile sends', async () => {
    answerContainers(2);
    followLink(linkTo({ statuses: ['available'], carriers: ['MAEU'] }, 'last_free_day:asc'));
    render(ContainersView, { def: containersList });

    expect(await screen.findByText('2 of 240 containers')).toBeTruthy();
    expect(bridge.argsOf('containers:list').at(-1)).toMatchObject({
      filters: { statuses: ['available'], carriers: ['MAEU'] },
      sort: { field: 'last_free_day', direction: 'asc' },
    });
    expect(screen.getByRole('button', { name: 'Status: Available for pickup' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Carrier: Maersk' })).toBeTruthy();
    // The link's filters are taken over: the address goes back to the plain list.
    expect(window.location.hash).toBe('#/containers');
  });

  it('drops an unknown key, a bad value and a sort the list does not take, and still shows the list', async () => {
    answerContainers(5);
    followLink(
      linkTo(
        { statuses: ['available', 'sunk'], onHold: 'yes', carrier: ['MAEU'], pickupReady: true, lfdTo: 'tomorrow' },
        'eta:asc',
      ),
    );
    render(ContainersView, { def: containersList });

    expect(await screen.findByText('5 of 240 containers')).toBeTruthy();
    expect(screen.queryByText('This list could not be read.')).toBeNull();
    const asked = bridge.argsOf('containers:list');
    expect(asked.length).toBeGreaterThan(0);
    for (const arg of asked) {
      expect(arg.filters).toEqual({ pickupReady: true });
      expect(arg.sort).toEqual(containersList.defaultSort);
    }
    expect(screen.getByRole('button', { name: 'Pickup: Ready for pickup' })).toBeTruthy();
  });

  it('keeps its own filters when the link carries no JSON object', async () => {
    answerContainers(7);
    localStorage.setItem(
      'quayside:list:containers',
      JSON.stringify({ filters: { onHold: true }, sort: { field: 'fees', direction: 'desc' }, columns: ['number'] }),
    );
    followLink('#/containers?filters=%7Bnot%20json');
    render(ContainersView, { def: containersList });

    expect(await screen.findByText('7 of 240 containers')).toBeTruthy();
    expect(bridge.argsOf('containers:list').at(-1)).toMatchObject({
      filters: { onHold: true },
      sort: { field: 'fees', direction: 'desc' },
    });
  });
});

describe('a list restored from saved state', () => {
  it('drops saved filters, sorts and columns the list no longer takes', async () => {
    answerContainers(3);
    localStorage.setItem(
      'quayside:list:containers',
      JSON.stringify({
        filters: { statuses: ['sunk'], terminal: ['X'], overdue: true },
        sort: { field: 'eta', direction: 'asc' },
        columns: ['number', 'no-such-column', 'fees'],
      }),
    );
    render(ContainersView, { def: containersList });

    expect(await screen.findByText('3 of 240 containers')).toBeTruthy();
    expect(bridge.argsOf('containers:list').at(-1)).toMatchObject({
      filters: { overdue: true },
      sort: containersList.defaultSort,
    });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent?.trim().replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(/^Container/),
      expect.stringMatching(/^Fees/),
    ]);
  });
});

describe('the row count', () => {
  it('keeps the label of the count it shows until the count for the new filters arrives', async () => {
    let release: (count: number) => void = () => {};
    answerContainers(7);
    bridge.answer('containers:count', (arg) =>
      Object.keys(arg.filters ?? {}).length === 0
        ? 7
        : new Promise<number>((resolve) => {
            release = resolve;
          }),
    );
    render(ContainersView, { def: containersList });
    const count = await screen.findByRole('status', { name: 'Row count' });
    await waitFor(() => expect(count.textContent?.trim()).toBe('7 containers'));

    followLink(linkTo({ statuses: ['available'] }));
    await waitFor(() => expect(bridge.argsOf('containers:count')).toHaveLength(3));
    // The whole list's count is still shown: not called a match of filters it did not count.
    expect(count.textContent?.trim()).toBe('7 containers');
    release(2);
    await waitFor(() => expect(count.textContent?.trim()).toBe('2 of 7 containers'));
  });
});

describe('a list filtered by a dashboard tile', () => {
  const rowCount = () => screen.findByRole('status', { name: 'Row count' });

  it('says it shows part of the list, and one click shows all of it', async () => {
    answerContainers(6);
    followLink(linkTo({ overdue: true }));
    render(ContainersView, { def: containersList });
    const count = await rowCount();
    await waitFor(() => expect(count.textContent?.trim()).toBe('6 of 240 containers'));

    await userEvent.setup().click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(count.textContent?.trim()).toBe('240 containers'));
    expect(bridge.argsOf('containers:list').at(-1)?.filters).toEqual({});
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });

  it('drops the tile’s filters when the list is opened from the sidebar', async () => {
    answerContainers(6);
    followLink(linkTo({ overdue: true }));
    const first = render(ContainersView, { def: containersList });
    const count = await rowCount();
    await waitFor(() => expect(count.textContent?.trim()).toBe('6 of 240 containers'));
    first.unmount();

    // Back from a container keeps them: the forwarder is still working through the tile's boxes.
    followLink('#/containers');
    const back = render(ContainersView, { def: containersList });
    await waitFor(async () => expect((await rowCount()).textContent?.trim()).toBe('6 of 240 containers'));
    back.unmount();

    followLink('#/containers?from=menu');
    render(ContainersView, { def: containersList });
    await waitFor(async () => expect((await rowCount()).textContent?.trim()).toBe('240 containers'));
    expect(bridge.argsOf('containers:list').at(-1)?.filters).toEqual({});
    expect(window.location.hash).toBe('#/containers');
  });

  it('keeps the forwarder’s own filters when the list is opened from the sidebar', async () => {
    answerContainers(4);
    localStorage.setItem(
      'quayside:list:containers',
      JSON.stringify({ filters: { onHold: true }, sort: { field: 'fees', direction: 'desc' }, columns: ['number'] }),
    );
    followLink('#/containers?from=menu');
    render(ContainersView, { def: containersList });
    await waitFor(async () => expect((await rowCount()).textContent?.trim()).toBe('4 of 240 containers'));
    expect(bridge.argsOf('containers:list').at(-1)?.filters).toEqual({ onHold: true });
  });
});
