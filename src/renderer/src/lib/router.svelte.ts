import { isViewId, type ViewId } from './views';

function viewFromHash(hash: string): ViewId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return isViewId(id) ? id : 'dashboard';
}

/** The current view, kept in the URL hash so back/forward and reloads keep the place. */
class Router {
  current = $state<ViewId>(viewFromHash(window.location.hash));

  constructor() {
    window.addEventListener('hashchange', () => {
      this.current = viewFromHash(window.location.hash);
    });
  }

  go(view: ViewId): void {
    window.location.hash = `#/${view}`;
  }
}

export const router = new Router();
