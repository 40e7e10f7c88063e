import { render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import ProfilesSettings from '../../src/renderer/src/components/ProfilesSettings.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { ProfileSummary, ProfilesState } from '../../src/shared/types';
import { Refusal, bridge } from './bridge';

const hubUrl = 'postgres://quayside_reader@hub.example.com:5432/quayside';

function teamProfile(): ProfileSummary {
  return {
    id: 't1',
    name: 'Team',
    baseUrl: 'https://api.terminal49.com/v2',
    keyLast4: '',
    keyStatus: 'unverified',
    keyStorage: 'keychain',
    createdAt: '2026-11-01T09:00:00Z',
    hub: { url: hubUrl, passwordStorage: 'keychain' },
  };
}

function state(profiles: ProfileSummary[]): ProfilesState {
  return { profiles, activeId: profiles[0]?.id ?? null, keyStorage: { kind: 'keychain', note: null } };
}

beforeEach(() => {
  app.profiles = state([]);
});

describe('a Team hub account in Settings', () => {
  it('sends the address and password, then lists the account as read-only here with a way to add a key', async () => {
    const user = userEvent.setup();
    render(ProfilesSettings);
    const added = teamProfile();
    bridge.answer('profiles:addHub', () => ({ profile: added, check: null, state: state([added]) }));

    await user.click(screen.getByRole('button', { name: 'Add a team hub' }));
    const form = screen.getByRole('form', { name: 'Add a team hub account' });
    expect(form).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Team');
    await user.type(screen.getByRole('textbox', { name: 'PostgreSQL address' }), hubUrl);
    await user.type(screen.getByLabelText('Password of the read-only role'), 'reader-pw');
    await user.click(screen.getByRole('button', { name: 'Add team hub' }));

    expect((await screen.findByRole('status')).textContent).toBe(
      'Team added: its lists come from the team hub, read-only on this computer.',
    );
    expect(bridge.argsOf('profiles:addHub')).toEqual([{ name: 'Team', hubUrl, password: 'reader-pw' }]);
    expect(screen.getByText(/Team hub · read-only here/)).toBeTruthy();
    expect(screen.getByText(hubUrl)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add API key' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Add a team hub account' })).toBeNull();
  });

  it("shows the hub's refusal under the address and keeps the address typed", async () => {
    const user = userEvent.setup();
    render(ProfilesSettings);
    const sentence =
      'PostgreSQL at postgres://quayside_reader@hub.example.com:5432/quayside could not be reached (connect ECONNREFUSED). Nothing was saved.';
    bridge.answer('profiles:addHub', () => {
      throw new Refusal({ code: 'invalid_argument', message: sentence, fields: { hubUrl: sentence } });
    });
    await user.click(screen.getByRole('button', { name: 'Add a team hub' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Team');
    const address = screen.getByRole('textbox', { name: 'PostgreSQL address' });
    await user.type(address, hubUrl);
    await user.click(screen.getByRole('button', { name: 'Add team hub' }));

    await waitFor(() => expect(address.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(address.getAttribute('aria-describedby')!)?.textContent).toBe(sentence);
    expect((address as HTMLInputElement).value).toBe(hubUrl);
    expect(app.profiles?.profiles).toEqual([]);
  });
});
