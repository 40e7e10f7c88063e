/**
 * The keys of a menu button and its menu (the WAI-ARIA menu button pattern), shared by
 * `MenuButton.svelte` (the Export menu) and FilterBar's "+ Filter" so both answer alike. On the
 * button ↓ opens the menu on its first item and ↑ on its last (Enter and Space click it, which
 * opens it on its first); in the menu ↑/↓ move round, Home/End go to either end, a letter to the
 * next item starting with it, Escape closes it and gives focus back to the button, Tab closes it
 * with focus on the button first, so Tab (or Shift+Tab) moves on from there.
 */

export type MenuEnd = 'first' | 'last';

/** The items a key can reach: the menu's menuitems that are not aria-disabled, in order. */
export function menuItemsOf(menu: HTMLElement | null | undefined): HTMLElement[] {
  return [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])].filter(
    (item) => item.getAttribute('aria-disabled') !== 'true',
  );
}

/** Focuses the menu's first or last item (call once the menu is drawn). */
export function focusMenuEnd(menu: HTMLElement | null | undefined, at: MenuEnd): void {
  const list = menuItemsOf(menu);
  (at === 'first' ? list[0] : list[list.length - 1])?.focus();
}

/** A key on the menu's button: ↓ and ↑ open it (`show`) on its first or last item. */
export function onMenuButtonKey(event: KeyboardEvent, show: (at: MenuEnd) => void): void {
  if (event.key === 'ArrowDown') {
    event.preventDefault();
    show('first');
  } else if (event.key === 'ArrowUp') {
    event.preventDefault();
    show('last');
  }
}

/**
 * A key in the open menu. `close` closes it and gives focus back to its button (Escape, Tab);
 * a key the menu does not use goes on as it was.
 */
export function onMenuKey(event: KeyboardEvent, menu: HTMLElement | null | undefined, close: () => void): void {
  const list = menuItemsOf(menu);
  const at = list.indexOf(document.activeElement as HTMLElement);
  const go = (index: number) => list[(index + list.length) % list.length]?.focus();
  if (event.key === 'ArrowDown') go(at + 1);
  else if (event.key === 'ArrowUp') go(at < 0 ? -1 : at - 1);
  else if (event.key === 'Home') go(0);
  else if (event.key === 'End') go(-1);
  else if (event.key === 'Escape') close();
  else if (event.key === 'Tab') {
    // Back on the button first, so Tab (or Shift+Tab) moves on from there.
    close();
    return;
  } else if (event.key.length === 1 && /\S/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
    const letter = event.key.toLowerCase();
    const after = [...list.slice(at + 1), ...list.slice(0, at + 1)];
    after.find((item) => item.textContent?.trim().toLowerCase().startsWith(letter))?.focus();
  } else return;
  event.preventDefault();
  event.stopPropagation();
}
