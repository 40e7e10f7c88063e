import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import WebhooksSettings from '../../src/renderer/src/components/WebhooksSettings.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { WebhookRow } from '../../src/shared/types';
import { Refusal, bridge } from './bridge';

let hooks: WebhookRow[];

beforeEach(() => {
  app.online = true;
  app.profiles = { profiles: [], activeId: null, keyStorage: { kind: 'keychain', note: null } };
  hooks = [{ id: 'w1', url: 'https://hooks.example.test/t49', active: true, events: ['container.updated'] }];
  bridge.answer('webhooks:list', () => hooks);
  bridge.answer('webhooks:notifications', () => ({
    notifications: [
      {
        id: 'n1',
        webhookId: 'w1',
        webhookUrl: 'https://hooks.example.test/t49',
        event: 'tracking_request.failed',
        deliveryStatus: 'failed',
        createdAt: '2026-11-24T10:15:00Z',
        referenceType: 'tracking_request',
        referenceId: 'tr1',
      },
    ],
    error: null,
  }));
});

describe('Settings → Webhooks', () => {
  it('lists the notifications sent: when, event, delivery status and what about', async () => {
    render(WebhooksSettings);
    const table = await screen.findByRole('table', { name: 'Notifications sent' });
    const cells = within(table)
      .getAllByRole('cell')
      .map((c) => c.textContent.trim());
    expect(cells).toEqual([
      expect.stringMatching(/^Nov 24, 10:15\sAM UTC$/),
      'tracking_request.failed',
      'Failed',
      'Tracking request',
    ]);
  });

  it('creates a webhook and shows its secret once; the service’s refusal goes under the address', async () => {
    const user = userEvent.setup();
    let attempt = 0;
    bridge.answer('webhooks:create', (arg) => {
      attempt++;
      if (attempt === 1)
        throw new Refusal({ code: 'rejected', message: 'No', fields: { url: 'Url must be a valid http(s) URL' } });
      const webhook = { id: 'w2', url: arg.url, active: arg.active, events: arg.events };
      hooks = [...hooks, webhook];
      return { webhook, secret: 'whsec_abc123' };
    });
    render(WebhooksSettings);
    await user.click(await screen.findByRole('button', { name: 'New webhook' }));
    const address = screen.getByRole('textbox', { name: 'Address' });
    await user.type(address, 'https://new.example.test/hook');
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    await waitFor(() => expect(address.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(address.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Url must be a valid http(s) URL',
    );

    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    const secret = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Signing secret' });
    expect(secret.value).toBe('whsec_abc123');
    expect(bridge.argsOf('webhooks:create')[1]).toEqual({
      url: 'https://new.example.test/hook',
      active: true,
      events: [
        // In the service's order, whatever order they were ticked in.
        'container.transport.vessel_arrived',
        'tracking_request.succeeded',
        'tracking_request.failed',
        'container.pickup_lfd.changed',
        'container.transport.available',
      ],
    });
    expect(await screen.findByRole('button', { name: 'Delete webhook https://new.example.test/hook' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).toBeNull();
  });

  it('edits a webhook: pauses it and changes its events', async () => {
    const user = userEvent.setup();
    bridge.answer('webhooks:update', (arg) => ({ ...hooks[0]!, ...arg }));
    render(WebhooksSettings);
    await user.click(await screen.findByRole('button', { name: 'Edit webhook https://hooks.example.test/t49' }));
    const form = screen.getByRole('form', { name: 'Edit webhook https://hooks.example.test/t49' });
    await user.click(within(form).getByRole('checkbox', { name: /Active/ }));
    await user.click(within(form).getByRole('checkbox', { name: 'container.transport.available' }));
    await user.click(within(form).getByRole('button', { name: 'Save webhook' }));
    await waitFor(() => expect(bridge.argsOf('webhooks:update')).toHaveLength(1));
    expect(bridge.argsOf('webhooks:update')[0]).toEqual({
      id: 'w1',
      url: 'https://hooks.example.test/t49',
      active: false,
      events: ['container.updated', 'container.transport.available'],
    });
  });
});
