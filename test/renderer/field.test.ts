import { render, screen } from '@testing-library/svelte';
import { createRawSnippet } from 'svelte';
import { describe, expect, it } from 'vitest';

import Field, { type ControlAttributes } from '../../src/renderer/src/components/Field.svelte';

function describedText(element: HTMLElement): string | undefined {
  const id = element.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? undefined) : undefined;
}

describe('Field', () => {
  it('labels its input and reads the hint until an error takes its place', async () => {
    const view = render(Field, { id: 'f', label: 'Name', hint: 'As your team knows it.' });
    const input = screen.getByRole('textbox', { name: 'Name' });
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(describedText(input)).toBe('As your team knows it.');

    await view.rerender({ error: 'Enter a name.' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(input)).toBe('Enter a name.');
    expect(screen.queryByText('As your team knows it.')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps a note beside an error, and announces the error when asked', () => {
    render(Field, { id: 'g', label: 'New tag', labelHidden: true, note: 'Offline.', error: 'Too long.', alert: true });
    const input = screen.getByRole('textbox', { name: 'New tag' });
    expect(screen.getByText('Offline.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Too long.');
    expect(describedText(input)).toBe('Too long.');
  });

  it('gives a select drawn by its control snippet the same id and error wiring', () => {
    const control = createRawSnippet((attributes: () => ControlAttributes) => ({
      render: () => '<select><option>Maersk</option></select>',
      setup: (select: Element) => {
        const { id, 'aria-invalid': invalid, 'aria-describedby': describedBy } = attributes();
        select.id = id;
        if (invalid) select.setAttribute('aria-invalid', invalid);
        if (describedBy) select.setAttribute('aria-describedby', describedBy);
      },
    }));
    render(Field, { id: 'carrier', label: 'Carrier', control, error: 'Pick the carrier.' });
    const select = screen.getByRole('combobox', { name: 'Carrier' });
    expect(select.tagName).toBe('SELECT');
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(select)).toBe('Pick the carrier.');
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
