/**
 * happy-dom computes no layout: elements have no size and setting scrollTop scrolls nothing. For
 * the list's scroller (`.scroller`) this gives the box a browser would: a fixed client size, a
 * scroll height read from its canvas's style height, scrollTop clamped to it, and a `scroll` event
 * after each change, as a browser fires one on its next frame. Row heights, sticky positioning,
 * wheel and touch scrolling are still not there: the Playwright specs cover those.
 */
import { afterEach } from 'vitest';

export const VIEWPORT = { width: 900, height: 400 };

const scrollTops = new WeakMap<Element, number>();

function isScroller(element: Element): boolean {
  return element.classList.contains('scroller');
}

function scrollHeight(element: Element): number {
  const canvas = element.firstElementChild as HTMLElement | null;
  return Math.max(VIEWPORT.height, parseFloat(canvas?.style.height ?? '') || 0);
}

function setScrollTop(element: Element, value: number): void {
  const top = Math.max(0, Math.min(value, scrollHeight(element) - VIEWPORT.height));
  if (top === (scrollTops.get(element) ?? 0)) return;
  scrollTops.set(element, top);
  setTimeout(() => element.dispatchEvent(new Event('scroll')));
}

const restores: (() => void)[] = [];

/** Replaces a property of HTMLElements for `.scroller` only, keeping happy-dom's for the rest. */
function overrideOnScrollers(
  name: 'clientHeight' | 'clientWidth' | 'scrollTop' | 'scrollTo',
  make: (original: PropertyDescriptor) => PropertyDescriptor,
): void {
  let owner: object = HTMLElement.prototype;
  while (!Object.hasOwn(owner, name)) owner = Object.getPrototypeOf(owner) as object;
  const original = Object.getOwnPropertyDescriptor(owner, name)!;
  Object.defineProperty(HTMLElement.prototype, name, { configurable: true, ...make(original) });
  restores.push(() => {
    if (owner === HTMLElement.prototype) Object.defineProperty(owner, name, original);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
  });
}

/** Gives every `.scroller` a browser's box until the test ends. */
export function layOutScrollers(): void {
  const size = (name: 'clientHeight' | 'clientWidth', value: number) =>
    overrideOnScrollers(name, (original) => ({
      get(this: HTMLElement) {
        return isScroller(this) ? value : (original.get!.call(this) as number);
      },
    }));
  size('clientHeight', VIEWPORT.height);
  size('clientWidth', VIEWPORT.width);
  overrideOnScrollers('scrollTop', (original) => ({
    get(this: HTMLElement) {
      return isScroller(this) ? (scrollTops.get(this) ?? 0) : (original.get!.call(this) as number);
    },
    set(this: HTMLElement, value: number) {
      if (isScroller(this)) setScrollTop(this, value);
      else original.set!.call(this, value);
    },
  }));
  overrideOnScrollers('scrollTo', (original) => ({
    value(this: HTMLElement, options?: ScrollToOptions | number, y?: number) {
      if (!isScroller(this))
        return (original.value as (o?: ScrollToOptions | number, y?: number) => void).call(this, options, y);
      const top = typeof options === 'number' ? y : options?.top;
      if (top !== undefined) setScrollTop(this, top);
    },
  }));
}

afterEach(() => {
  while (restores.length > 0) restores.pop()!();
});
