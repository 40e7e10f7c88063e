// Runs before each renderer test file imports anything: `lib/api.ts` reads `window.api` once.
import { beforeEach } from 'vitest';

import { bridge } from './bridge';

window.api = bridge;
beforeEach(() => bridge.reset());
