import { afterAll, beforeAll } from 'vitest';
import { DEMO_API_KEY, startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when there is none. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read documents freely
}

/** A sandbox for the whole file, started once and closed at the end. */
export function useSandbox(options: SandboxOptions = {}): { get: () => Sandbox } {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    // Without routing unless a test asks for it: route maps cost requests of their own (one 403
    // here), which tests of other things should not spend against the sandbox's rate limit.
    sandbox = await startSandbox({ seed: 'tests', shipments: 60, routing: false, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return {
    get: () => {
      if (!sandbox) throw new Error('sandbox not started');
      return sandbox;
    },
  };
}

/** One request to the sandbox with the demo key (or the given headers). */
export async function call(
  sandbox: Sandbox,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; key?: string | null } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers.authorization = `Token ${init.key ?? DEMO_API_KEY}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/vnd.api+json';
  }
  const response = await fetch(`${sandbox.url}${path}`, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}
