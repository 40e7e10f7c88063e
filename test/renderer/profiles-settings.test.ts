import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import ProfilesSettings from '../../src/renderer/src/components/ProfilesSettings.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { ProfileSummary, ProfilesState } from '../../src/shared/types';
import { Refusal, bridge } from './bridge';

function profile(overrides: Partial<ProfileSummary> = {}): ProfileSummary {
  return {
    id: 'p1',
    name: 'Head office',
    baseUrl: 'https://api.terminal49.com/v2',
    keyLast4: 'a1b2',
    keyStatus: 'accepted',
    keyStorage: 'keychain',
    createdAt: '2026-11-01T09:00:00Z',
    ...overrides,
  };
}

function state(profiles: ProfileSummary[]): ProfilesState {
  return { profiles, activeId: profiles[0]?.id ?? null, keyStorage: { kind: 'keychain', note: null } };
}

beforeEach(() => {
  app.profiles = state([]);
});

describe('accounts in Settings', () => {
  it('adds an account: the key is checked by core, the list shows it by its last four characters', async () => {
    const user = userEvent.setup();
    render(ProfilesSettings);
    expect(screen.getByText(/No API key is set/)).toBeTruthy();
    const added = profile({ name: 'Rotterdam desk', keyLast4: 'wxyz' });
    bridge.answer('profiles:add', () => ({
      profile: added,
      check: { result: 'accepted', message: 'the service accepted the key.' },
      state: state([added]),
    }));

    await user.click(screen.getByRole('button', { name: 'Add an API key' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Rotterdam desk');
    await user.type(screen.getByLabelText('API key'), 'secret-key-wxyz');
    await user.click(screen.getByRole('button', { name: 'Add account' }));

    expect((await screen.findByRole('status')).textContent).toBe('Rotterdam desk added: the service accepted the key.');
    expect(bridge.argsOf('profiles:add')).toEqual([{ name: 'Rotterdam desk', apiKey: 'secret-key-wxyz' }]);
    expect(screen.getByText(/Key ending …wxyz/)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
  });

  it('shows a refused key under the key field, with the hint gone and the key emptied', async () => {
    const user = userEvent.setup();
    render(ProfilesSettings);
    bridge.answer('profiles:add', () => {
      throw new Refusal({
        code: 'key_refused',
        message: 'The service refused the key.',
        fields: { apiKey: 'The service refused this key: check it was copied whole.' },
      });
    });
    await user.click(screen.getByRole('button', { name: 'Add an API key' }));
    const key = screen.getByLabelText('API key');
    expect(document.getElementById(key.getAttribute('aria-describedby')!)?.textContent).toMatch(/^Checked with/);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Head office');
    await user.type(key, 'wrong');
    await user.click(screen.getByRole('button', { name: 'Add account' }));

    await waitFor(() => expect(key.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(key.getAttribute('aria-describedby')!)?.textContent).toBe(
      'The service refused this key: check it was copied whole.',
    );
    expect(screen.queryByText(/^Checked with the service/)).toBeNull();
    expect((key as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBeNull();
  });

  it('a profile that needs its key again says why and is fixed with a base URL and the key', async () => {
    const user = userEvent.setup();
    const broken = profile({
      keyStatus: 'needs-key',
      baseUrl: 'http://api.example.test/v2',
      keyProblem: 'Quayside sends keys only over https: give the base URL and the key again.',
    });
    app.profiles = state([broken]);
    render(ProfilesSettings);
    const item = screen.getByRole('listitem');
    expect(within(item).getByText(broken.keyProblem!)).toBeTruthy();
    expect(within(item).getByText(/key not sent/)).toBeTruthy();

    const fix = within(item).getByRole('button', { name: 'Fix base URL and key' });
    expect(fix.getAttribute('aria-describedby')).toBe(`problem-${broken.id}`);
    await user.click(fix);
    const url = within(item).getByRole('textbox', { name: 'Base URL for Head office' });
    expect((url as HTMLInputElement).value).toBe('http://api.example.test/v2');

    bridge.answer('profiles:update', (arg) => {
      if (!arg.baseUrl?.startsWith('https:')) {
        throw new Refusal({
          code: 'invalid_argument',
          message: 'Refused.',
          fields: { baseUrl: 'The base URL must start with https://.' },
        });
      }
      const fixed = profile({ baseUrl: arg.baseUrl });
      return { profile: fixed, check: { result: 'accepted', message: 'accepted.' }, state: state([fixed]) };
    });
    await user.type(within(item).getByLabelText('New API key for Head office'), 'key-1234');
    await user.click(within(item).getByRole('button', { name: 'Check and save' }));
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(url.getAttribute('aria-describedby')!)?.textContent).toBe(
      'The base URL must start with https://.',
    );

    await user.clear(url);
    await user.type(url, 'https://api.example.test/v2');
    await user.type(within(item).getByLabelText('New API key for Head office'), 'key-1234');
    await user.click(within(item).getByRole('button', { name: 'Check and save' }));
    expect((await screen.findByRole('status')).textContent).toBe('Key for Head office replaced: accepted.');
    expect(bridge.argsOf('profiles:update').at(-1)).toEqual({
      id: 'p1',
      apiKey: 'key-1234',
      baseUrl: 'https://api.example.test/v2',
    });
    expect(screen.getByRole('button', { name: 'Replace key' })).toBeTruthy();
  });
});

describe('an account whose service address does not answer as the Tracking API', () => {
  const sentence =
    'Quayside could not use http://127.0.0.1:5999/v2: the connection was refused, so nothing is listening at that address and port. Nothing was saved; Head office is still shown.';
  const refusal = () => new Refusal({ code: 'invalid_argument', message: sentence, fields: { baseUrl: sentence } });

  it('says so under the address, with no green message, and the account shown before stays shown', async () => {
    const user = userEvent.setup();
    const headOffice = profile();
    app.profiles = state([headOffice]);
    render(ProfilesSettings);
    bridge.answer('profiles:add', () => {
      throw refusal();
    });
    await user.click(screen.getByRole('button', { name: 'Add an API key' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Branch');
    await user.type(screen.getByLabelText('API key'), 'secret-key-wxyz');
    const address = screen.getByRole('textbox', { name: /Service address/ });
    await user.type(address, 'http://127.0.0.1:5999/v2');
    await user.click(screen.getByRole('button', { name: 'Add account' }));

    await waitFor(() => expect(address.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(address.getAttribute('aria-describedby')!)?.textContent).toBe(sentence);
    expect(screen.queryByRole('status')).toBeNull();
    // The form stays open with what was typed, so the address can be corrected.
    expect((address as HTMLInputElement).value).toBe('http://127.0.0.1:5999/v2');
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(within(screen.getByRole('listitem')).getByText('shown now')).toBeTruthy();
  });

  it('a replaced key at such an address shows the sentence under the key field', async () => {
    const user = userEvent.setup();
    app.profiles = state([profile({ keyStatus: 'unverified', baseUrl: 'http://127.0.0.1:5999/v2' })]);
    render(ProfilesSettings);
    bridge.answer('profiles:update', () => {
      throw refusal();
    });
    const item = screen.getByRole('listitem');
    await user.click(within(item).getByRole('button', { name: 'Replace key' }));
    const key = within(item).getByLabelText('New API key for Head office');
    await user.type(key, 'key-1234');
    await user.click(within(item).getByRole('button', { name: 'Check and save' }));
    await waitFor(() => expect(key.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(key.getAttribute('aria-describedby')!)?.textContent).toBe(sentence);
  });
});
