/**
 * Why a Ctrl+K result matched: the search tables hold one body per row, so the field is found
 * again here, in the row the palette shows: the field holding most of the typed words (the first
 * such in the order a forwarder thinks of them), its value cut into parts with those words marked.
 */
import type { ContainerRow, ShipmentRow, TrackingRequestRow } from '../../shared/rows';
import type { Found, LocationInfo, SearchMatch } from '../../shared/types';

type Candidate = [field: string, value: string | null | undefined];

/** The typed words as the search takes them (see `searchMatch` in the store's keyset queries). */
function wordsOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 8)
    .sort((a, b) => b.length - a.length);
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function matchIn(text: string, candidates: Candidate[]): SearchMatch | null {
  const words = wordsOf(text);
  if (words.length === 0) return null;
  const tests = words.map((word) => new RegExp(escape(word), 'iu'));
  let best: { field: string; value: string; found: number } | null = null;
  for (const [field, value] of candidates) {
    if (!value) continue;
    const found = tests.filter((test) => test.test(value.normalize('NFKC'))).length;
    if (found > (best?.found ?? 0)) best = { field, value: value.normalize('NFKC'), found };
  }
  if (!best) return null;
  const parts: SearchMatch['parts'] = [];
  const all = new RegExp(words.map(escape).join('|'), 'giu');
  let at = 0;
  for (const hit of best.value.matchAll(all)) {
    if (hit.index > at) parts.push({ text: best.value.slice(at, hit.index), hit: false });
    parts.push({ text: hit[0], hit: true });
    at = hit.index + hit[0].length;
  }
  if (at < best.value.length) parts.push({ text: best.value.slice(at), hit: false });
  return { field: best.field, parts };
}

const many = (field: string, values: string[]): Candidate[] => values.map((value) => [field, value]);

function shipmentFields(s: ShipmentRow): Candidate[] {
  return [
    ['Bill of lading', s.billOfLading],
    ...many('Reference number', s.refNumbers),
    ...many('Tag', s.tags),
    ['Vessel', s.vessel],
    ['Customer', s.customer],
    ['Port of discharge', s.portOfDischarge],
    ['Port of discharge', s.portOfDischargeCode],
    ['Port of lading', s.portOfLading],
    ['Port of lading', s.portOfLadingCode],
    ['Destination', s.destination],
    ['Destination', s.destinationCode],
    ['Carrier', s.carrierScac],
  ];
}

export function matchShipment(text: string, s: ShipmentRow): Found<ShipmentRow> {
  return { ...s, matched: matchIn(text, shipmentFields(s)) };
}

/** A container matches by its number or through its shipment (whose row may be among the results). */
export function matchContainer(text: string, c: ContainerRow, shipment?: ShipmentRow): Found<ContainerRow> {
  const own: Candidate[] = [
    ['Container number', c.number],
    ['Bill of lading', c.billOfLading],
    ...many('Tag', c.tags),
    ['Vessel', c.vessel],
    ['Customer', c.customer],
    ['Port of discharge', c.portOfDischarge],
    ['Destination', c.destination],
    ['Carrier', c.carrierScac],
  ];
  const viaShipment = shipment
    ? shipmentFields(shipment).map(([field, value]): Candidate => [`Shipment’s ${field.toLowerCase()}`, value])
    : [];
  return { ...c, matched: matchIn(text, [...own, ...viaShipment]) };
}

export function matchTrackingRequest(text: string, r: TrackingRequestRow): Found<TrackingRequestRow> {
  return {
    ...r,
    matched: matchIn(text, [
      ['Request number', r.requestNumber],
      ...many('Reference number', r.refNumbers),
      ...many('Tag', r.tags),
      ['Customer', r.customer],
      ['Carrier', r.carrierScac],
    ]),
  };
}

export function matchLocation(text: string, l: LocationInfo): Found<LocationInfo> {
  return {
    ...l,
    matched: matchIn(text, [
      ['UN/LOCODE', l.code],
      ['Name', l.name],
    ]),
  };
}
