/** Migration 0005, the routing part (issue 15). SQL only; empty until its tables are added. */
export const up = ``;
