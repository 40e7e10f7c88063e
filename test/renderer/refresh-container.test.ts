import { render, screen } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import RefreshContainer from '../../src/renderer/src/components/RefreshContainer.svelte';
import type { ContainerRefreshResult } from '../../src/shared/service-actions';
import { bridge } from './bridge';

async function click(result: ContainerRefreshResult) {
  bridge.answer('containers:refresh', () => result);
  render(RefreshContainer, { id: 'c-1' });
  const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Refresh now' });
  await userEvent.setup().click(button);
  await screen.findByText((_, node) => node?.id === 'refresh-now-note' && node.textContent.trim() !== '');
  return { button, note: document.getElementById('refresh-now-note')!.textContent.replace(/\s+/g, ' ').trim() };
}

describe('Refresh now on the container page', () => {
  it('says the refresh started, in the service’s words, for the container shown', async () => {
    const { button, note } = await click({
      outcome: 'started',
      message: 'Started refresh for Shipping line, Terminal',
    });
    expect(bridge.argsOf('containers:refresh')).toEqual([{ id: 'c-1' }]);
    expect(note).toBe(
      'Started refresh for Shipping line, Terminal. New events arrive with the next sync, or with Refresh under the events.',
    );
    expect(button.disabled).toBe(false);
  });

  it('past the minute’s limit, says when it may try again and stays off until then', async () => {
    const retryAt = new Date(Date.now() + 45_000).toISOString();
    const { button, note } = await click({
      outcome: 'wait',
      retryAt,
      message: 'The Tracking API takes 10 container refreshes a minute, and this account has used them.',
    });
    expect(note).toMatch(
      /^The Tracking API takes 10 container refreshes a minute, and this account has used them\. You can refresh again in (4[0-5]) seconds \(.+\)\.$/,
    );
    expect(button.disabled).toBe(true);
  });

  it('an account without the feature gets one sentence, and the button stays off', async () => {
    const message =
      'Refreshing a container on demand is not part of this Terminal49 account (a paid feature); its data still updates with every sync.';
    const { button, note } = await click({ outcome: 'not_enabled', message });
    expect(note).toBe(message);
    expect(button.disabled).toBe(true);
  });
});
