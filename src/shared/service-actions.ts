/**
 * Arguments and answers of the actions that ask the service to do something now rather than read
 * the local copy: suggesting a number's carrier (`trackingRequests:inferCarrier`) and refreshing a
 * container from its sources (`containers:refresh`). No node, electron or DOM imports here.
 */
import { z } from 'zod';

export const inferCarrierSchema = z.object({ number: z.string().max(60) }).strict();

/** One carrier the service thinks a number belongs to. */
export interface CarrierCandidate {
  scac: string;
  name: string;
  /** 0–1, as the service says it. */
  confidence: number;
}

/** What the service made of a number being typed; null when it could not be asked or said nothing. */
export interface CarrierSuggestion {
  /** The number as it was sent (normalised), so a late answer for an older number can be told apart. */
  number: string;
  numberType: 'container' | 'bill_of_lading' | 'booking' | null;
  /** `auto_select`: one carrier, sure; `needs_confirmation`: a guess among `candidates`. */
  decision: 'auto_select' | 'needs_confirmation' | 'no_prediction';
  selected: CarrierCandidate | null;
  candidates: CarrierCandidate[];
}

/**
 * What asking for a container refresh came to. `started`: the service is asking the line, terminal
 * and rail now (`message` is its own). `wait`: the 10-a-minute limit is used up; nothing was sent,
 * or the service said to wait; try again at `retryAt`. `not_enabled`: the account does not have
 * container refresh (a paid feature); `message` says so in one sentence.
 */
export type ContainerRefreshResult =
  | { outcome: 'started'; message: string }
  | { outcome: 'wait'; retryAt: string; message: string }
  | { outcome: 'not_enabled'; message: string };
