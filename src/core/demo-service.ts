/**
 * The demo account's service, injected by whoever composes the core: main and the CLI pass the
 * sandbox running on loopback (`sandboxDemoService` in src/sandbox/demo-service.ts), tests may
 * pass their own. Core never imports the sandbox; without a service the demo account has no sync.
 */
export interface DemoService {
  /** Starts a service for one demo session; the session closes it when it closes. */
  start(): Promise<DemoServer>;
}

export interface DemoServer {
  /** Base URL including /v2, as a profile's base URL. */
  url: string;
  /** The key the service accepts (kept out of the log like any other key). */
  apiKey: string;
  close(): Promise<void>;
}

/** What a sync or an action in demo mode says when no demo service was injected. */
export const NO_DEMO_SERVICE =
  'No demo service is available here, so the demo account cannot sync. Add an account with its API key in Settings.';
