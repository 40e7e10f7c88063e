/**
 * The local simulator of the Shipment Tracking API: demo mode, tests and benchmarks run
 * against it on loopback. Never imports electron.
 */

/** The key the sandbox accepts when no other is given; documented in the README. */
export const DEMO_API_KEY = 'quayside-demo-key';
