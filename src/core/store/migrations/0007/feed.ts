/** Migration 0007, part feed: empty until its work fills it. */
export const up = '';
