/**
 * Ctrl+K's section "On the service": when the local copy has few or no results for text that
 * looks like a number, the Tracking API's search is asked (`search:service`) and what it has that
 * this computer does not is offered to open (fetched into the copy) or, when it has nothing, to
 * track. The newest text wins: an answer for older text is dropped, and the local results never
 * wait for it.
 */
import type { ServiceSearchResult } from '../../../shared/service-search';
import { normalizeTrackingNumber } from '../../../shared/identifiers';
import { trackingRequestStatusLabels } from '../../../shared/labels';
import { api } from './api';
import { messageOf } from './errors';

/** What the service section shows for the text typed. */
export type ServiceState =
  | { state: 'idle' }
  | { state: 'asking'; query: string }
  | { state: 'answered'; query: string; results: ServiceSearchResult[]; alreadyHere: number }
  /** Not asked (offline, no key) or it failed: one quiet line. */
  | { state: 'said'; query: string; message: string };

/** The text as a number: spaces taken out (numbers have none), dashes kept (references do). */
export const compact = (text: string): string => text.trim().replace(/\s+/g, '');

/** Whether the text looks like a container, bill of lading, booking or reference number. */
export function looksLikeNumber(text: string): boolean {
  const value = compact(text);
  return /^[A-Za-z0-9][A-Za-z0-9./_-]{3,39}$/.test(value) && (value.match(/\d/g)?.length ?? 0) >= 3;
}

/** Few local results, none of them the number itself: worth asking the service. */
export function wantsService(text: string, localTitles: readonly string[]): boolean {
  if (!looksLikeNumber(text) || localTitles.length > 3) return false;
  const number = normalizeTrackingNumber(compact(text));
  return !localTitles.some((title) => normalizeTrackingNumber(title) === number);
}

/** The number to put in the new tracking request form, when the text can be one. */
export function trackableNumber(text: string): string | null {
  const number = normalizeTrackingNumber(compact(text));
  return /^[A-Z0-9]{5,30}$/.test(number) ? number : null;
}

const kindLabels: Record<ServiceSearchResult['kind'], string> = {
  shipment: 'Shipment',
  container: 'Container',
  trackingRequest: 'Tracking request',
};

/** One result's line under its number: what it is, whose, where. */
export function detailOf(result: ServiceSearchResult): string {
  const status = result.status ? (trackingRequestStatusLabels[result.status] ?? result.status) : null;
  const boxes =
    result.containersCount === null
      ? null
      : `${result.containersCount} container${result.containersCount === 1 ? '' : 's'}`;
  return [
    kindLabels[result.kind],
    result.scac,
    result.kind === 'trackingRequest' ? status : null,
    result.portOfLading && result.portOfDischarge
      ? `${result.portOfLading} → ${result.portOfDischarge}`
      : result.portOfDischarge,
    boxes,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** How long typing may pause before the service is asked: a request per number, not per key. */
const PAUSE_MS = 250;

export class ServiceSearch {
  current = $state<ServiceState>({ state: 'idle' });
  #asked = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Drops what is pending (the text changed); what is shown stays until the next local answer. */
  cancel(): void {
    clearTimeout(this.#timer);
    this.#asked++;
  }

  reset(): void {
    this.cancel();
    this.current = { state: 'idle' };
  }

  /** Asks about `text` after a short pause, showing that it is asking at once. */
  ask(text: string): void {
    this.cancel();
    const query = compact(text);
    const mine = this.#asked;
    this.current = { state: 'asking', query };
    this.#timer = setTimeout(() => {
      api.invoke('search:service', { query }).then(
        (answer) => {
          if (mine !== this.#asked || answer.outcome === 'superseded') return;
          this.current =
            answer.outcome === 'answered'
              ? { state: 'answered', query, results: answer.results, alreadyHere: answer.alreadyHere }
              : { state: 'said', query, message: answer.message };
        },
        (failure: unknown) => {
          if (mine === this.#asked) this.current = { state: 'said', query, message: messageOf(failure) };
        },
      );
    }, PAUSE_MS);
  }
}
