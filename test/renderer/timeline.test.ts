import { render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';

import Timeline from '../../src/renderer/src/components/Timeline.svelte';
import { milestoneLabels } from '../../src/shared/labels';
import type { Milestone, TransportEventRow } from '../../src/shared/types';

const now = Date.parse('2026-03-20T00:00:00Z');
const milestone = (key: string, at: string, more: Partial<Milestone> = {}): Milestone => ({
  key,
  label: milestoneLabels[key] ?? key,
  at,
  estimated: false,
  place: 'Los Angeles',
  timezone: 'UTC',
  ...more,
});
const event = (
  id: string,
  kind: string,
  timestamp: string,
  more: Partial<TransportEventRow> = {},
): TransportEventRow => ({
  id,
  event: `container.transport.${kind}`,
  label: milestoneLabels[kind] ?? kind.replaceAll('_', ' '),
  timestamp,
  timezone: 'UTC',
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
/** The timeline's steps (not the reports nested in them), by their label. */
const steps = () =>
  [...screen.getByRole('list', { name: 'Milestones of TEST' }).querySelectorAll(':scope > li')] as HTMLElement[];
const step = (label: string) => steps().find((li) => li.querySelector('.what')?.textContent?.includes(label))!;

describe('Timeline with the container’s events', () => {
  it('lists a withdrawn report in its step, in words, and does not repeat the report the step shows', () => {
    render(Timeline, {
      props: {
        label: 'Milestones of TEST',
        now,
        milestones: [milestone('vessel_discharged', '2026-03-09T12:00:00Z', { corrected: true })],
        events: [
          event('old', 'vessel_discharged', '2026-03-08T02:00:00Z', {
            withdrawnAt: '2026-03-09T18:00:00Z',
            replacedBy: 'new',
          }),
          event('new', 'vessel_discharged', '2026-03-09T12:00:00Z', {
            replaces: 'old',
            vessel: 'MSC ANNA',
            voyage: '123W',
          }),
        ],
      },
    });
    const discharged = step('Discharged');
    // The step's own time is the correction, with the report's terminal and vessel.
    expect(discharged.querySelector('.when')!.textContent).toContain('Los Angeles · TraPac LA · MSC ANNA 123W');
    expect(discharged.textContent).toContain('Corrected: the carrier withdrew an earlier report');
    // Beneath it, only the withdrawn report, said in words.
    const reports = within(discharged).getAllByRole('listitem');
    expect(reports).toHaveLength(1);
    expect(reports[0]!.textContent).toContain('Withdrawn by the carrier');
    expect(reports[0]!.textContent).toMatch(/Withdrawn .+\. Corrected to .+\./);
    expect(reports[0]!.querySelector('time')!.getAttribute('datetime')).toBe('2026-03-08T02:00:00Z');
    expect(discharged.textContent).not.toContain('Replaces a report the carrier withdrew.');
  });

  it('keeps a withdrawn report with no correction under a step that has not happened', () => {
    render(Timeline, {
      props: {
        label: 'Milestones of TEST',
        now,
        milestones: [],
        events: [event('gone', 'full_out', '2026-03-10T12:00:00Z', { withdrawnAt: '2026-03-10T20:00:00Z' })],
      },
    });
    const pickedUp = step('Picked up (full out)');
    expect(pickedUp.textContent).toContain('(not yet)');
    expect(pickedUp.textContent).toContain('Withdrawn by the carrier');
    expect(pickedUp.textContent).toContain('No correction sent.');
  });

  it('keeps core’s order: a rail box is available at the ramp after its rail legs', () => {
    render(Timeline, {
      props: {
        label: 'Milestones of TEST',
        now,
        milestones: [
          milestone('vessel_discharged', '2026-03-01T12:00:00Z'),
          milestone('rail_loaded', '2026-03-02T12:00:00Z'),
          milestone('rail_unloaded', '2026-03-06T12:00:00Z'),
          milestone('available', '2026-03-07T12:00:00Z'),
        ],
        events: [event('x', 'feeder_departed', '2026-03-03T12:00:00Z')],
      },
    });
    const labels = steps().map((li) => li.querySelector('.what')!.firstChild!.textContent!.trim());
    expect(labels).toEqual([
      'Empty picked up at origin',
      'Full in at origin terminal',
      'Loaded on vessel',
      'Vessel departed',
      'Vessel arrived',
      'Discharged',
      'Loaded on rail',
      'Unloaded from rail',
      'Available for pickup',
      'Picked up (full out)',
      'Empty returned',
      // A kind with no milestone of its own is a step, from its report.
      'feeder departed',
    ]);
    expect(step('feeder departed').textContent).toContain('(done)');
  });
});
