/**
 * The container page's one refresh: it asks the service to look the box up at its line, terminal
 * and rail, and fetches the box's latest events, whatever the lookup answers; the note says what
 * the service did, or when a lookup may be asked again.
 */
import { render, screen } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import RefreshContainer from '../../src/renderer/src/components/RefreshContainer.svelte';
import type { ContainerRefreshResult } from '../../src/shared/service-actions';
import { bridge } from './bridge';

const note = () => document.getElementById('refresh-now-note')!.textContent.replace(/\s+/g, ' ').trim();

function setUp(answer: () => ContainerRefreshResult) {
  bridge.answer('containers:refresh', answer);
  const fetched: string[] = [];
  render(RefreshContainer, {
    id: 'c-1',
    onrefresh: () => {
      fetched.push('events');
      return Promise.resolve();
    },
  });
  const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Refresh now' });
  const user = userEvent.setup();
  const click = async () => {
    const before = fetched.length;
    await user.click(button);
    await screen.findByRole('button', { name: 'Refresh now' });
    expect(fetched).toHaveLength(before + 1);
  };
  return { button, click, fetched };
}

describe('Refresh now on the container page', () => {
  it('asks the service to look the box up, fetches its events, and says so in the service’s words', async () => {
    const { button, click } = setUp(() => ({
      outcome: 'started',
      message: 'Started refresh for Shipping line, Terminal',
    }));
    await click();
    expect(bridge.argsOf('containers:refresh')).toEqual([{ id: 'c-1' }]);
    expect(note()).toBe(
      'Started refresh for Shipping line, Terminal. What they report arrives with the next sync; the events below are the latest the service has.',
    );
    expect(button.disabled).toBe(false);
  });

  it('past the minute’s limit, says when a lookup may be asked again, and still fetches the events', async () => {
    const retryAt = new Date(Date.now() + 45_000).toISOString();
    const { button, click } = setUp(() => ({
      outcome: 'wait',
      retryAt,
      message: 'The Tracking API takes 10 container refreshes a minute, and this account has used them.',
    }));
    await click();
    expect(note()).toMatch(
      /^The Tracking API takes 10 container refreshes a minute, and this account has used them\. Its events were fetched; you can ask for a lookup again in (4[0-5]) seconds \(.+\)\.$/,
    );
    expect(button.disabled).toBe(false);
    // Clicked again within the minute: the events only, no lookup asked.
    await click();
    expect(bridge.argsOf('containers:refresh')).toHaveLength(1);
  });

  it('an account without the feature gets one sentence, and the button fetches the events alone', async () => {
    const message =
      'Refreshing a container on demand is not part of this Terminal49 account (a paid feature); its data still updates with every sync.';
    const { button, click } = setUp(() => ({ outcome: 'not_enabled', message }));
    await click();
    expect(note()).toBe(`${message} Refresh now fetches its latest events.`);
    expect(button.disabled).toBe(false);
    expect(button.title).toBe('Fetch this container’s latest events from the Tracking API');
    await click();
    expect(bridge.argsOf('containers:refresh')).toHaveLength(1);
  });

  it('a lookup that fails says why, and the events are fetched all the same', async () => {
    const { click } = setUp(() => {
      throw new Error('The Tracking API did not answer in time.');
    });
    await click();
    expect(note()).toContain('The Tracking API did not answer in time.');
  });
});
