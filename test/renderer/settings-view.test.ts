import { render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import SettingsView from '../../src/renderer/src/views/SettingsView.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { Settings } from '../../src/shared/types';
import { Refusal, bridge } from './bridge';

const settings: Settings = {
  theme: 'system',
  timeDisplay: 'local',
  syncIntervalMinutes: 15,
  rates: { currency: 'USD', sets: [] },
};

beforeEach(() => {
  app.settings = { ...settings };
  app.profiles = { profiles: [], activeId: null, keyStorage: { kind: 'keychain', note: null } };
  bridge.answer('data:info', () => ({
    path: '/data/demo.sqlite',
    bytes: 5 * 1024 * 1024,
    shipments: 1234,
    containers: 2345,
    trackingRequests: 12,
  }));
  bridge.answer('webhooks:list', () => [
    { id: 'w1', url: 'https://hooks.example.test/t49', active: true, events: ['container.updated'] },
  ]);
  bridge.answer('webhooks:notifications', () => ({ notifications: [], error: null }));
  bridge.answer('customFields:admin', () => []);
});

describe('Settings', () => {
  it('shows the data on this computer, the account’s webhooks and this computer’s zone', async () => {
    render(SettingsView);
    expect(await screen.findByText(/5\.0 MB · 1,234 shipments, 2,345 containers/)).toBeTruthy();
    expect(await screen.findByText('https://hooks.example.test/t49')).toBeTruthy();
    expect(screen.getByRole('radio', { name: /This computer’s time zone \(UTC\)/ })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /This computer’s time zone/ }).checked).toBe(true);
  });

  it('saves a setting through the api and shows what core kept', async () => {
    const user = userEvent.setup();
    bridge.answer('settings:update', (patch) => ({ ...settings, ...patch }));
    render(SettingsView);
    await user.click(screen.getByRole('radio', { name: /The port’s time zone/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sync every' }), '1 hour');

    expect(bridge.argsOf('settings:update')).toEqual([{ timeDisplay: 'port' }, { syncIntervalMinutes: 60 }]);
    await waitFor(() => expect(app.settings?.syncIntervalMinutes).toBe(60));
  });

  it('says why a setting was not saved', async () => {
    const user = userEvent.setup();
    bridge.answer('settings:update', () => {
      throw new Refusal({ code: 'storage', message: 'The settings file could not be written: the disk is full.' });
    });
    render(SettingsView);
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The settings file could not be written: the disk is full.',
    );
  });
});
