/**
 * Where the app is: the URL hash, `#/view[/id][?filters=…&sort=field:dir]`, so back, forward and
 * a reload keep the place. A dashboard tile links to a list with the exact filters its count
 * used; the sidebar opens a list with `?from=menu`, where the list drops such linked filters.
 */
import { isViewId, type ViewId } from './views';

export interface Route {
  view: ViewId;
  /** A record inside the view: `#/shipments/<id>` opens that shipment. */
  id: string | null;
  params: Readonly<Record<string, string>>;
}

function parseQuery(query: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const part of query.split('&')) {
    if (!part) continue;
    const [key = '', value = ''] = part.split('=', 2);
    try {
      params[decodeURIComponent(key)] = decodeURIComponent(value.replaceAll('+', ' '));
    } catch {
      // A mangled parameter is ignored.
    }
  }
  return params;
}

export function parseHash(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const [first = '', ...rest] = path.split('/');
  const view = isViewId(first) ? first : 'dashboard';
  const id = view === first && rest.length > 0 && rest[0] ? decodeURIComponent(rest.join('/')) : null;
  return { view, id, params: parseQuery(query) };
}

export function hrefOf(view: ViewId, id: string | null = null, params?: Record<string, string>): string {
  const query =
    params && Object.keys(params).length > 0
      ? `?${Object.entries(params)
          .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
          .join('&')}`
      : '';
  return `#/${view}${id === null ? '' : `/${encodeURIComponent(id)}`}${query}`;
}

/** The current place, kept in the URL hash so back/forward and reloads keep it. */
class Router {
  route = $state<Route>(parseHash(window.location.hash));

  constructor() {
    window.addEventListener('hashchange', () => {
      this.route = parseHash(window.location.hash);
    });
  }

  get current(): ViewId {
    return this.route.view;
  }

  go(view: ViewId, id: string | null = null, params?: Record<string, string>): void {
    window.location.hash = hrefOf(view, id, params);
  }

  /** Changes the address without a history entry (e.g. dropping a one-time filter parameter). */
  replace(view: ViewId, id: string | null = null): void {
    history.replaceState(history.state, '', hrefOf(view, id));
    this.route = parseHash(window.location.hash);
  }
}

export const router = new Router();
