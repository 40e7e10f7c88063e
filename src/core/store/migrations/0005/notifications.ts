/** Migration 0005, the notifications part (issue 15). SQL only; empty until its tables are added. */
export const up = ``;
