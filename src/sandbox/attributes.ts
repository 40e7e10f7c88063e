/** The `attributes` of each resource the sandbox serves, as the service writes them at `ctx.now`. */
import type { ShippingLineData } from './data/shipping-lines';
import type { TerminalData } from './data/terminals';
import type { ContainerPlan, ShipmentPlan } from './model';
import { contentTypeOf, documentFileBytes, schemaIdOf } from './documents';
import { hash32 } from './random';
import { containerStateCached, iso, type Entity, type SerializeContext } from './entity';
import { eventNames, originalEventText, rawEventNames } from './event-names';
import { containerChangeset } from './changeset';
import { shipmentState, trackingRequestState } from './state';

/** A terminal's SMDG code and BIC facility code, made up from its port and name as the codes are. */
function terminalCodes(t: TerminalData): { smdg_code: string; bic_facility_code: string } {
  const skip = ['Terminal', 'Terminals', 'Container', 'Marine', 'Port', 'of', 'the', 'The', 'at'];
  const words = t.name.split(/[\s-]+/).filter((w) => /^[A-Za-z0-9]/.test(w) && !skip.includes(w));
  let smdg = words.map((w) => (/^[A-Z0-9]+$/.test(w) ? w : w[0]!.toUpperCase())).join('');
  if (smdg.length < 3) smdg += t.firmsCode.replace(/[^A-Z0-9]/g, '');
  smdg = smdg.slice(0, 5);
  return { smdg_code: smdg, bic_facility_code: `${t.portCode}${smdg.slice(0, 4).padEnd(4, 'X')}` };
}

/**
 * A line's tracking and contact pages. Simulated: on the reserved `.example` domain, so nothing
 * in demo mode points at a real carrier's site.
 */
function lineLinks(l: ShippingLineData): { tracking_url: string; contact_url: string } {
  const site = `https://www.${l.shortName.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`;
  return { tracking_url: `${site}/tracking`, contact_url: `${site}/contact` };
}

function shipmentAttributes(s: ShipmentPlan, ctx: SerializeContext): Record<string, unknown> {
  const state = shipmentState(s, ctx.now);
  const line = s.line.data;
  const scacPrefix = s.billOfLading.startsWith(line.scac) ? line.scac.length : 0;
  return {
    created_at: iso(s.createdAt),
    ref_numbers: s.refNumbers,
    tags: s.tags,
    bill_of_lading_number: s.billOfLading,
    normalized_number: s.billOfLading.slice(scacPrefix),
    shipping_line_scac: line.scac,
    shipping_line_name: line.name,
    shipping_line_short_name: line.shortName,
    customer_name: s.customer?.companyName ?? null,
    port_of_lading_locode: s.pol.data.code,
    port_of_lading_name: s.pol.data.name,
    port_of_discharge_locode: s.pod.data.code,
    port_of_discharge_name: s.pod.data.name,
    pod_vessel_name: s.vessel.data.name,
    pod_vessel_imo: s.vessel.data.imo,
    pod_voyage_number: s.voyage,
    destination_locode: s.destination.data.code,
    destination_name: s.destination.data.name,
    destination_timezone: s.destination.data.timeZone,
    destination_ata_at: iso(state.destinationAta),
    destination_eta_at: iso(state.destinationEta),
    destination_original_eta_at: iso(s.destinationEtaRevisions[0]?.eta),
    pol_etd_at: iso(state.etd),
    pol_original_etd_at: iso(s.etdRevisions[0]?.eta),
    pol_atd_at: iso(state.atd),
    pol_timezone: s.pol.data.timeZone,
    pod_eta_at: iso(state.eta),
    pod_original_eta_at: iso(state.originalEta),
    pod_ata_at: iso(state.ata),
    pod_timezone: s.pod.data.timeZone,
    line_tracking_last_attempted_at: iso(state.lastAttemptedAt),
    line_tracking_last_succeeded_at: iso(state.lastAttemptedAt),
    line_tracking_stopped_at: iso(state.stop?.at),
    line_tracking_stopped_reason: state.stop?.reason ?? null,
    // Not in the reference schema; real payloads carry more than it lists.
    updated_at: iso(state.updatedAt),
  };
}

function containerAttributes(c: ContainerPlan, ctx: SerializeContext): Record<string, unknown> {
  const { state } = containerStateCached(c, ctx);
  const at = (key: Parameters<typeof state.known.get>[0]) => iso(state.known.get(key)?.at);
  const s = c.shipment;
  const rail = s.rail !== null && s.destination !== s.pod;
  const emptyIn = state.known.get('empty_in');
  return {
    number: c.number,
    seal_number: c.sealNumber,
    created_at: iso(c.createdAt),
    ref_numbers: c.refNumbers,
    equipment_type: c.equipmentType,
    equipment_length: c.equipmentLength,
    equipment_height: c.equipmentHeight,
    weight_in_lbs: c.weightLbs,
    pod_arrived_at: at('vessel_arrived'),
    pod_discharged_at: at('vessel_discharged'),
    final_destination_full_out_at: rail ? at('full_out') : null,
    holds_at_pod_terminal: state.holds,
    available_for_pickup: state.availableForPickup,
    pod_full_out_at: rail ? null : at('full_out'),
    empty_terminated_at: at('empty_in'),
    terminal_checked_at: iso(state.terminalCheckedAt),
    fees_at_pod_terminal: state.fees,
    // The service coalesces the deadlines, preferring the line's.
    pickup_lfd: iso(state.lineLastFreeDay ?? state.lastFreeDay ?? state.railLastFreeDay),
    pickup_appointment_at: iso(state.appointmentAt),
    pod_full_out_chassis_number: state.known.has('full_out') && !rail ? c.chassisNumber : null,
    location_at_pod_terminal: state.location,
    pod_last_tracking_request_at: iso(state.terminalCheckedAt),
    shipment_last_tracking_request_at: iso(state.shipmentCheckedAt),
    availability_known: state.availabilityKnown,
    pod_timezone: s.pod.data.timeZone,
    final_destination_timezone: rail ? s.destination.data.timeZone : null,
    empty_terminated_timezone: emptyIn ? emptyIn.port.data.timeZone : null,
    pod_rail_carrier_scac: rail ? s.rail!.podRailScac : null,
    ind_rail_carrier_scac: rail ? s.rail!.indRailScac : null,
    pod_rail_loaded_at: at('rail_loaded'),
    pod_rail_departed_at: at('rail_departed'),
    ind_eta_at: rail && !state.known.has('rail_arrived') ? iso(shipmentState(s, ctx.now).destinationEta) : null,
    ind_ata_at: at('rail_arrived'),
    ind_rail_unloaded_at: at('rail_unloaded'),
    ind_facility_lfd_on: iso(state.railLastFreeDay),
    // The live service leaves the deadlines out for some boxes (pickup_lfd still says the day).
    import_deadlines:
      hash32(c.id) % 5 === 0
        ? null
        : {
            pickup_lfd_terminal: iso(state.lastFreeDay),
            pickup_lfd_rail: iso(state.railLastFreeDay),
            pickup_lfd_line: iso(state.lineLastFreeDay),
          },
    // Not in the reference: what the live service adds on a container.
    empty_out_at: at('empty_out'),
    pol_full_in_at: at('full_in'),
    pol_vessel_loaded_at: at('vessel_loaded'),
    pol_vessel_departed_at: at('vessel_departed'),
    delivered_at: iso(state.deliveredAt),
    ssl_lfd: iso(state.lineLastFreeDay),
    ind_facility_holds: state.facilityHolds,
    ind_facility_fees: state.facilityFees,
    rail_last_tracking_request_at: iso(state.railCheckedAt),
    current_status: state.status,
    updated_at: iso(state.updatedAt),
  };
}

export function attributesOf(entity: Entity, ctx: SerializeContext): Record<string, unknown> {
  switch (entity.type) {
    case 'shipment':
      return shipmentAttributes(entity.rec, ctx);
    case 'container':
      return containerAttributes(entity.rec, ctx);
    case 'transport_event': {
      const { milestone, reportedAt, invalidatedAt } = entity.rec;
      return {
        event: eventNames[milestone.key],
        created_at: iso(reportedAt),
        voyage_number: milestone.voyage,
        timestamp: iso(milestone.at),
        timezone: milestone.port.data.timeZone,
        location_locode: milestone.port.data.code,
        data_source: milestone.dataSource,
        // Not in the reference schema; the live service sends them on every event.
        invalidated_at: iso(invalidatedAt),
        value: null,
      };
    }
    case 'raw_event': {
      const { milestone, index } = entity.rec;
      const known = milestone.reportedAt <= ctx.now && milestone.at <= ctx.now;
      const day = iso(milestone.at)!.slice(0, 10);
      return {
        event: rawEventNames[milestone.key],
        original_event: originalEventText[milestone.key],
        timestamp: iso(milestone.at),
        estimated: !known,
        actual_on: known ? day : null,
        estimated_on: known ? null : day,
        actual_at: known ? iso(milestone.at) : null,
        estimated_at: known ? null : iso(milestone.at),
        timezone: milestone.port.data.timeZone,
        created_at: iso(Math.min(milestone.reportedAt, ctx.now)),
        location_name: milestone.port.data.name,
        location_locode: milestone.port.data.code,
        vessel_name: milestone.vessel?.data.name ?? null,
        vessel_imo: milestone.vessel?.data.imo ?? null,
        index,
        voyage_number: milestone.voyage,
      };
    }
    case 'tracking_request': {
      const r = entity.rec;
      const state = trackingRequestState(r, ctx.now);
      return {
        request_number: r.requestNumber,
        request_type: r.requestType,
        scac: r.scacKnownFrom !== null && ctx.now < r.scacKnownFrom ? null : r.scac,
        ref_numbers: r.refNumbers,
        // The live service names a request's tags after the shipment they are for.
        [ctx.shape === 'reference' ? 'tags' : 'shipment_tags']: r.tags,
        status: state.status,
        failed_reason: state.failedReason,
        created_at: iso(r.createdAt),
        updated_at: iso(state.updatedAt),
        is_retrying: state.isRetrying,
        retry_count: state.retryCount,
      };
    }
    case 'port': {
      const p = entity.rec.data;
      return {
        name: p.name,
        code: p.code,
        state_abbr: p.stateAbbr,
        city: p.city,
        country_code: p.countryCode,
        time_zone: p.timeZone,
        // The live service writes a port's position as text.
        latitude: String(p.latitude),
        longitude: String(p.longitude),
      };
    }
    case 'metro_area': {
      const m = entity.rec.data;
      return {
        name: m.name,
        code: m.code,
        state_abbr: m.stateAbbr,
        country_code: m.countryCode,
        time_zone: m.timeZone,
        latitude: m.latitude,
        longitude: m.longitude,
      };
    }
    case 'rail_terminal': {
      const t = entity.rec.data;
      return { name: t.name, nickname: t.nickname };
    }
    case 'terminal': {
      const t = entity.rec.data;
      // The schema has no nulls here: what the service does not know, it leaves out.
      return {
        name: t.name,
        nickname: t.nickname,
        firms_code: t.firmsCode,
        ...terminalCodes(t),
        ...(t.street === null ? {} : { street: t.street }),
        city: t.city,
        state: t.state,
        state_abbr: t.state,
        ...(t.zip === null ? {} : { zip: t.zip }),
        country: t.country,
      };
    }
    case 'shipping_line': {
      const l = entity.rec.data;
      return {
        scac: l.scac,
        name: l.name,
        alternative_scacs: [],
        short_name: l.shortName,
        ...lineLinks(l),
        bill_of_lading_tracking_support: l.supported,
        booking_number_tracking_support: l.supported,
        container_number_tracking_support: l.supported,
      };
    }
    case 'vessel': {
      const v = entity.rec;
      return {
        name: v.data.name,
        imo: v.data.imo,
        mmsi: v.data.mmsi,
        latitude: v.latitude,
        longitude: v.longitude,
        nautical_speed_knots: 14.2,
        navigational_heading_degrees: 271,
        position_timestamp: iso(ctx.now - 40 * 60_000),
      };
    }
    case 'party':
      return { company_name: entity.rec.companyName };
    case 'account':
      return { company_name: entity.rec.companyName };
    case 'custom_field_definition': {
      const d = entity.rec;
      return {
        entity_type: d.entityType,
        api_slug: d.apiSlug,
        display_name: d.displayName,
        description: d.description,
        data_type: d.dataType,
        reference_type: null,
        validation: d.validation ?? null,
        default_format: d.defaultFormat ?? null,
        default_value: d.defaultValue ?? null,
      };
    }
    case 'custom_field_option':
      return { label: entity.rec.label, value: entity.rec.value, position: entity.rec.position };
    case 'custom_field':
      return {
        api_slug: entity.rec.definition.apiSlug,
        value: entity.rec.value,
        display_value: entity.rec.displayValue,
      };
    case 'email_submission': {
      const m = entity.rec;
      return {
        subject: m.subject,
        body: m.body,
        from: m.from,
        to: m.to,
        cc: [],
        sent_at: iso(m.sentAt),
        message_id: m.messageId,
        in_reply_to: null,
        references: [],
        content_type: 'multipart/mixed',
        documents_count: m.documents.length,
        created_at: iso(m.createdAt),
        updated_at: iso(m.createdAt),
      };
    }
    case 'document': {
      const d = entity.rec;
      return {
        id: d.id,
        name: d.name,
        document_type: d.documentType,
        document_type_manual: d.documentTypeManual ?? null,
        classification_notes: null,
        source: d.source,
        file_name: d.fileName,
        file_content_type: contentTypeOf(d.fileName),
        file_size_bytes: documentFileBytes(d).length,
        created_at: iso(d.createdAt),
        updated_at: iso(d.updatedAt ?? d.createdAt),
      };
    }
    case 'document_schema': {
      const s = entity.rec;
      return {
        document_type: s.documentType,
        label: s.label,
        schema_version: s.version,
        full_version: s.id,
        current: true,
        draft: false,
        active_at: iso(s.createdAt),
        schema_format: 'json_schema',
        description: null,
        schema_payload: { type: 'object', title: s.label, properties: { document_type: { const: s.documentType } } },
        created_at: iso(s.createdAt),
        updated_at: iso(s.createdAt),
      };
    }
    case 'document_representation': {
      const d = entity.rec;
      return {
        schema_version: schemaIdOf(d.documentTypeManual ?? d.documentType),
        payload: { document_type: d.documentTypeManual ?? d.documentType, ...d.extractedDataManual },
        created_at: iso(d.createdAt),
        updated_at: iso(d.createdAt),
      };
    }
    case 'webhook': {
      const w = entity.rec;
      return {
        url: w.url,
        active: w.active,
        events: w.events,
        secret: w.secret,
        headers: w.headers,
        created_at: iso(w.createdAt),
      };
    }
    case 'webhook_notification': {
      const n = entity.rec;
      return { event: n.event, delivery_status: n.deliveryStatus, created_at: iso(n.createdAt) };
    }
    case 'estimated_event': {
      const r = entity.rec;
      return {
        created_at: iso(r.createdAt),
        estimated_timestamp: iso(r.estimatedAt),
        event: r.event,
        location_locode: r.port.data.code,
        timezone: r.port.data.timeZone,
        voyage_number: r.shipment.voyage,
        data_source: 'shipping_line',
      };
    }
    case 'container_updated_event': {
      const r = entity.rec;
      return {
        changeset: containerChangeset(r.container, r.timestamp),
        timestamp: iso(r.timestamp),
        timezone: r.container.shipment.pod.data.timeZone,
        data_source: 'terminal',
      };
    }
  }
}
