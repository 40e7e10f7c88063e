import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { api } from './lib/api';

// Errors the page could not handle go to the app's local log (Settings > Copy diagnostics shows them).
function report(message: string, stack?: string): void {
  void api
    .invoke('app:reportError', {
      message: message.slice(0, 2000),
      stack: stack?.slice(0, 8000),
      where: location.hash.slice(0, 300),
    })
    .catch(() => {});
}
window.addEventListener('error', (event) => {
  const error: unknown = event.error;
  report(error instanceof Error ? error.message : event.message, error instanceof Error ? error.stack : undefined);
});
window.addEventListener('unhandledrejection', (event) => {
  const reason: unknown = event.reason;
  report(reason instanceof Error ? reason.message : String(reason), reason instanceof Error ? reason.stack : undefined);
});

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
export default mount(App, { target });
