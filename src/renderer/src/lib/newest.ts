import { messageOf } from './errors';

/**
 * A read that may be asked again before its answer arrives (data changed, another record opened,
 * another account shown): only the newest call's answer, or its failure as a sentence, is
 * delivered, so a slow earlier answer never replaces a later one.
 */
export function newestOnly<T>(take: (value: T) => void, fail: (message: string) => void) {
  let asked = 0;
  return async (call: () => Promise<T>): Promise<void> => {
    const mine = ++asked;
    try {
      const value = await call();
      if (mine === asked) take(value);
    } catch (failure) {
      if (mine === asked) fail(messageOf(failure));
    }
  };
}
