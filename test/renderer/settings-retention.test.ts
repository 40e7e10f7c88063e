/**
 * Settings → Sync → "Keep changes for": how long the change history keeps
 * changes, saved through `settings:update`; a value set in settings.json by hand is offered too.
 */
import { render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import SettingsView from '../../src/renderer/src/views/SettingsView.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { Settings } from '../../src/shared/types';
import { bridge } from './bridge';

const settings: Settings = {
  theme: 'system',
  timeDisplay: 'local',
  syncIntervalMinutes: 15,
  rates: { currency: 'USD', sets: [] },
  changeRetentionDays: 180,
};

beforeEach(() => {
  app.profiles = { profiles: [], activeId: null, keyStorage: { kind: 'keychain', note: null } };
  bridge.answer('data:info', () => ({
    path: '/data/demo.sqlite',
    bytes: 1024,
    shipments: 1,
    containers: 1,
    trackingRequests: 1,
  }));
  bridge.answer('webhooks:list', () => []);
  bridge.answer('webhooks:notifications', () => ({ notifications: [], error: null }));
});

describe('change history retention in Settings', () => {
  it('shows the days kept and saves another choice', async () => {
    const user = userEvent.setup();
    app.settings = { ...settings };
    bridge.answer('settings:update', (patch) => ({ ...settings, ...patch }));
    render(SettingsView);
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Keep changes for' });
    expect(select.value).toBe('180');
    expect([...select.options].map((o) => o.textContent)).toEqual([
      '30 days',
      '90 days',
      '180 days',
      '365 days',
      '730 days',
    ]);
    await user.selectOptions(select, '90 days');
    expect(bridge.argsOf('settings:update')).toEqual([{ changeRetentionDays: 90 }]);
    await waitFor(() => expect(app.settings?.changeRetentionDays).toBe(90));
  });

  it('offers a value set by hand in settings.json among the choices', () => {
    app.settings = { ...settings, changeRetentionDays: 45 };
    render(SettingsView);
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Keep changes for' });
    expect(select.value).toBe('45');
    expect([...select.options].map((o) => o.value)).toEqual(['30', '45', '90', '180', '365', '730']);
  });
});
