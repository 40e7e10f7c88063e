import type { Theme } from '../../../shared/types';

/** Applies a theme to the document; 'system' follows the OS and its later changes. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}
