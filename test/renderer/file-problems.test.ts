import { render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';

import ProfilesSettings from '../../src/renderer/src/components/ProfilesSettings.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';

const profilesSentence =
  'profiles.json was written by a newer Quayside (version 2); update Quayside to use it. It has not been changed.';
const settingsSentence =
  'settings.json was written by a newer Quayside (version 3); update Quayside to use it. It has not been changed.';

afterEach(() => {
  app.profiles = null;
  app.settings = null;
});

describe('a settings or profiles file Quayside refused', () => {
  it('is named in Settings, above the accounts, in the sentence core sent', () => {
    app.profiles = {
      profiles: [],
      activeId: null,
      keyStorage: { kind: 'keychain', note: null },
      fileProblem: profilesSentence,
    };
    app.settings = {
      theme: 'system',
      timeDisplay: 'local',
      syncIntervalMinutes: 15,
      rates: { currency: 'USD', sets: [] },
      fileProblem: settingsSentence,
    };
    render(ProfilesSettings);
    expect(screen.getAllByRole('alert').map((el) => el.textContent)).toEqual([profilesSentence, settingsSentence]);
  });

  it('says nothing when both files are Quayside’s own', () => {
    app.profiles = { profiles: [], activeId: null, keyStorage: { kind: 'keychain', note: null } };
    app.settings = {
      theme: 'system',
      timeDisplay: 'local',
      syncIntervalMinutes: 15,
      rates: { currency: 'USD', sets: [] },
    };
    render(ProfilesSettings);
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });
});
