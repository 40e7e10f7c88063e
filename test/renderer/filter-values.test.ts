/**
 * A chip's pick list as its find box is typed (FilterBar.svelte, `filters:values`): the list
 * before stays, narrowed to the new text, until the store answers it; a slow answer to an
 * older text never replaces a newer one's; more values than listed are said; a failed read is
 * said in its sentence with the list before kept.
 */
import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import FilterBar from '../../src/renderer/src/components/FilterBar.svelte';
import type { FilterDef } from '../../src/renderer/src/lib/lists-model';
import type { FilterValues } from '../../src/shared/filter-values';
import { bridge, Refusal } from './bridge';

interface Filters {
  customers?: string[];
}

const defs: FilterDef<Filters>[] = [{ key: 'customers', label: 'Customer', kind: 'options', source: 'customers' }];

const option = (name: string, count = 1) => ({ value: name, label: name, count });

/** Each `filters:values` call waits until the test answers it, by the text it asked for. */
function heldAnswers() {
  const waiting = new Map<string, (answer: FilterValues | Error) => void>();
  bridge.answer('filters:values', ({ query = '' }) => {
    return new Promise<FilterValues>((resolve, reject) =>
      waiting.set(query, (answer) => (answer instanceof Error ? reject(answer) : resolve(answer))),
    );
  });
  return async (query: string, answer: FilterValues | Error) => {
    await waitFor(() => expect(waiting.has(query), `"${query}" asked`).toBe(true));
    waiting.get(query)!(answer);
    waiting.delete(query);
  };
}

async function openCustomer() {
  const user = userEvent.setup();
  render(FilterBar<Filters>, { defs, filters: {}, options: null, onneedoptions: () => {}, onchange: () => {} });
  await user.click(screen.getByRole('button', { name: '+ Filter' }));
  await user.click(screen.getByRole('menuitem', { name: 'Customer' }));
  const editor = screen.getByRole('dialog', { name: 'Filter: Customer' });
  return { user, editor, list: within(editor).getByRole('list', { name: 'Customer values' }) };
}

const names = (list: HTMLElement) =>
  within(list)
    .queryAllByRole('listitem')
    .map((li) => li.textContent?.replace(/\s+/g, ' ').trim());

describe('a chip’s values as typed', () => {
  it('keeps the list before, narrowed, until the newest text is answered; an older answer never lands after it', async () => {
    const answer = heldAnswers();
    const { user, editor, list } = await openCustomer();
    await answer('', {
      options: [option('Acme Foods', 3), option('Acme Tools', 2), option('Bolt Ltd', 4)],
      more: false,
    });
    await waitFor(() => expect(names(list)).toHaveLength(3));
    expect(within(editor).getByRole('status').textContent).toBe('3 match.');

    const box = within(editor).getByRole('searchbox', { name: 'Find a customer' });
    await user.type(box, 'acme');
    // Not answered yet: the list before, narrowed to the text, busy, and no "Loading values…".
    expect(names(list)).toEqual(['Acme Foods 3', 'Acme Tools 2']);
    expect(list.getAttribute('aria-busy')).toBe('true');
    expect(within(editor).queryByText('Loading values…')).toBeNull();

    await answer('acme', { options: [option('Acme Foods', 3)], more: false });
    await waitFor(() => expect(names(list)).toEqual(['Acme Foods 3']));
    // The answers to "a", "ac" and "acm" come after it, one of them naming what "acme f" does not hold.
    await answer('acm', { options: [option('Acme Foods', 3), option('Acme Tools', 2)], more: false });
    await answer('a', { options: [option('Zed')], more: false });
    await answer('ac', { options: [option('Zed')], more: false });
    // Two more keys: the list is still the newest answer's, narrowed (had "a"'s landed, none would match).
    await user.type(box, ' f');
    expect(names(list)).toEqual(['Acme Foods 3']);
    await answer('acme f', { options: [option('Acme Foods', 3)], more: false });
    await waitFor(() => expect(list.getAttribute('aria-busy')).toBe('false'));
    expect(names(list)).toEqual(['Acme Foods 3']);
    expect(within(editor).getByRole('status').textContent).toBe('One matches.');
  });

  it('says when more values match than are listed, and says a failed read with the list before kept', async () => {
    const answer = heldAnswers();
    const { user, editor, list } = await openCustomer();
    await answer('', { options: [option('Acme Foods'), option('Bolt Ltd')], more: true });
    await waitFor(() =>
      expect(within(editor).getByRole('status').textContent).toBe('The first 2 that match: type to narrow them.'),
    );

    await user.type(within(editor).getByRole('searchbox', { name: 'Find a customer' }), 'b');
    await answer('b', new Refusal({ code: 'storage', message: 'The local database could not be read.' }));
    expect((await within(editor).findByRole('alert')).textContent).toBe('The local database could not be read.');
    expect(names(list)).toEqual(['Bolt Ltd 1']);
  });
});
