/**
 * `POST /tracking_requests/infer_number`: the carrier and kind of a number, as the service predicts
 * them. A container number is read by its owner code (the line's own codes, or a lessor's shared by
 * several lines); a bill of lading by the prefix the line prints ahead of it (the BOL prefix of
 * `data/shipping-lines.ts`, from the reference's shipping-lines.csv, or the SCAC itself).
 */
import { containerCheckDigit, normalizeTrackingNumber } from '../shared/identifiers';
import { shippingLines, type ShippingLineData } from './data/shipping-lines';
import { ownerCodes } from './generate-shipment';
import { unprocessable, HttpError, type Reply, type RouteContext } from './http';
import { stableUuid } from './random';

interface Candidate {
  scac: string;
  name: string;
  confidence: number;
}

const candidate = (line: ShippingLineData, confidence: number): Candidate => ({
  scac: line.scac,
  name: line.name,
  confidence,
});

/** Lines whose boxes carry this owner code: their own code first, then as a lessor's. */
function linesByOwner(owner: string): ShippingLineData[] {
  const own = shippingLines.filter((l) => l.scac === owner || l.bolPrefix === owner);
  if (own.length > 0) return own;
  return shippingLines.filter((l) => ownerCodes[l.scac]?.includes(owner));
}

function linesByBolPrefix(number: string): ShippingLineData[] {
  return shippingLines.filter(
    (l) => (l.bolPrefix !== '' && number.startsWith(l.bolPrefix)) || number.startsWith(l.scac),
  );
}

export function inferNumber(route: RouteContext): Reply {
  // The reference's body is plain JSON, `{ "number": "…" }`, not a JSON:API document.
  const raw = (route.body as { number?: unknown } | undefined)?.number;
  if (typeof raw !== 'string') {
    throw new HttpError(400, [
      { status: '400', title: 'Bad Request', detail: 'param is missing or the value is empty: number' },
    ]);
  }
  const number = normalizeTrackingNumber(raw);
  if (!/^[A-Z0-9]{4,30}$/.test(number)) {
    // The reference's example of this answer carries no pointer; ours names the field all the same.
    throw unprocessable([{ pointer: '/number', detail: 'This reference number is not valid.' }]);
  }
  const looksLikeContainer = /^[A-Z]{3}[UJZ]\d{7}$/.test(number);
  let lines: ShippingLineData[];
  let attributes: Record<string, unknown>;
  if (looksLikeContainer) {
    const passed = containerCheckDigit(number.slice(0, 10)) === Number(number.charAt(10));
    lines = linesByOwner(number.slice(0, 4));
    attributes = {
      number_type: 'container',
      validation: {
        is_valid: passed,
        type: 'container',
        check_digit_passed: passed,
        parsed_number: null,
        reason: passed ? null : 'The check digit does not match.',
      },
    };
  } else {
    lines = linesByBolPrefix(number);
    attributes = {
      number_type: /^\d+$/.test(number) ? 'booking' : 'bill_of_lading',
      validation: { is_valid: null, type: 'shipment', check_digit_passed: null, parsed_number: number, reason: null },
    };
  }
  const candidates = lines.map((l) => candidate(l, Math.round((1 / lines.length) * 100) / 100));
  const decision = lines.length === 0 ? 'no_prediction' : lines.length === 1 ? 'auto_select' : 'needs_confirmation';
  attributes.shipping_line = {
    decision,
    selected: lines.length === 1 ? candidates[0] : null,
    candidates,
  };
  return {
    status: 200,
    body: {
      data: {
        id: `req_${stableUuid(String(route.ctx.now), number)}`,
        type: 'infer_number_results',
        attributes,
      },
    },
  };
}
