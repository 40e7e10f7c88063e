import { render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import TagEditor from '../../src/renderer/src/components/TagEditor.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { ShipmentRow } from '../../src/shared/rows';
import { Refusal, bridge } from './bridge';

function editor(values: string[]) {
  const onsaved = vi.fn<(values: string[]) => void>();
  const view = render(TagEditor, { shipmentId: 's1', field: 'tags', values, noun: 'tag', onsaved });
  return { onsaved, view, user: userEvent.setup() };
}

describe('the tag editor', () => {
  it('adds a tag through the api and hands back the saved tags', async () => {
    bridge.answer('shipments:update', (arg) => ({ tags: arg.tags }) as ShipmentRow);
    const { user, onsaved } = editor(['urgent']);
    const input = screen.getByRole('textbox', { name: 'New tag' });
    await user.type(input, ' collect ');
    await user.click(screen.getByRole('button', { name: 'Add tag' }));

    await waitFor(() => expect(onsaved).toHaveBeenCalledWith(['urgent', 'collect']));
    expect(bridge.argsOf('shipments:update')).toEqual([{ id: 's1', tags: ['urgent', 'collect'] }]);
    expect((input as HTMLInputElement).value).toBe('');
  });

  it('removes a tag with its own button', async () => {
    bridge.answer('shipments:update', (arg) => ({ tags: arg.tags }) as ShipmentRow);
    const { user, onsaved } = editor(['urgent', 'collect']);
    await user.click(screen.getByRole('button', { name: 'Remove tag urgent' }));
    await waitFor(() => expect(onsaved).toHaveBeenCalledWith(['collect']));
  });

  it('says a tag is already there, announced and tied to the input, without a call', async () => {
    const { user } = editor(['urgent']);
    const input = screen.getByRole('textbox', { name: 'New tag' });
    await user.type(input, 'urgent{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The shipment already has the tag “urgent”.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(alert.id);
    expect(bridge.calls).toEqual([]);
  });

  it('shows the service’s refusal of the tag', async () => {
    bridge.answer('shipments:update', () => {
      throw new Refusal({ code: 'rejected', message: 'Refused.', fields: { tags: 'Tags cannot contain commas.' } });
    });
    const { user, onsaved } = editor([]);
    expect(screen.getByText('None')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'New tag' }), 'a,b{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Tags cannot contain commas.');
    expect(onsaved).not.toHaveBeenCalled();
  });

  it('is disabled offline, saying so under the input', () => {
    app.online = false;
    try {
      editor(['urgent']);
      const input = screen.getByRole('textbox', { name: 'New tag' });
      expect((input as HTMLInputElement).disabled).toBe(true);
      expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe(
        'Can be changed once back online.',
      );
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Remove tag urgent' }).disabled).toBe(true);
    } finally {
      app.online = true;
    }
  });
});
