/** Migration 0006, imports (issue 16): filled by the work on it; empty until then. */
export const up = '';
