import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';

import TransportEvents from '../../src/renderer/src/components/TransportEvents.svelte';
import type { TransportEventRow } from '../../src/shared/types';

const event = (id: string, timestamp: string, more: Partial<TransportEventRow> = {}): TransportEventRow => ({
  id,
  event: 'container.transport.vessel_discharged',
  label: 'Discharged',
  timestamp,
  timezone: 'America/Los_Angeles',
  location: 'Los Angeles',
  locationCode: 'USLAX',
  terminal: 'TraPac LA',
  vessel: null,
  voyage: null,
  dataSource: 'terminal',
  withdrawnAt: null,
  replacedBy: null,
  replaces: null,
  ...more,
});

describe('TransportEvents', () => {
  it('says in words which event the carrier withdrew, when, and what it was corrected to', () => {
    // `props` spelled out: `events` alone would be read as a component option.
    render(TransportEvents, {
      props: {
        events: [
          event('old', '2026-03-08T02:00:00Z', { withdrawnAt: '2026-03-09T18:00:00Z', replacedBy: 'new' }),
          event('new', '2026-03-09T12:00:00Z', { replaces: 'old' }),
          event('gone', '2026-03-10T12:00:00Z', {
            event: 'container.transport.full_out',
            label: 'Picked up (full out)',
            withdrawnAt: '2026-03-10T20:00:00Z',
          }),
          event('plain', '2026-03-11T12:00:00Z', { event: 'container.transport.empty_in', label: 'Empty returned' }),
        ],
      },
    });
    const [old, fix, gone, plain] = screen.getAllByRole('listitem');
    expect(old!.textContent).toContain('Withdrawn by the carrier');
    expect(old!.textContent).toMatch(/Withdrawn .+\. Corrected to .+\./);
    // The event's time, when it was withdrawn, then the time it was corrected to.
    expect([...old!.querySelectorAll('time')].map((t) => t.getAttribute('datetime'))).toEqual([
      '2026-03-08T02:00:00Z',
      '2026-03-09T18:00:00Z',
      '2026-03-09T12:00:00Z',
    ]);
    expect(fix!.textContent).toContain('Corrected');
    expect(fix!.textContent).toContain('Replaces a report the carrier withdrew.');
    expect(fix!.textContent).not.toContain('Withdrawn by the carrier');
    expect(gone!.textContent).toContain('Withdrawn by the carrier');
    expect(gone!.textContent).toContain('No correction sent.');
    for (const text of ['Withdrawn', 'Corrected', 'Replaces']) expect(plain!.textContent).not.toContain(text);
  });
});
