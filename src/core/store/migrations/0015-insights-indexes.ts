/**
 * Migration 0015, insights indexes, so the insights' figures over a range of arrivals read
 * indexes alone.
 *
 * - The shipments arrived, in arrival order, with what arrival reliability and dwell read of
 *   each (carrier, lane, first ETA, departure, destination terminal): the range is one run of
 *   this index, no shipment row read. Only arrived shipments are in it.
 * - Each shipment's containers with their dwell milestones: a shipment's boxes are one run of
 *   this index, no container row read. It begins with `shipment_id`, so it also serves every
 *   look-up `containers_shipment` served.
 * - A box's transport events in time order now carry their kind and whether they were withdrawn,
 *   so the first "available" after discharge is found without reading each event's row.
 */
export const up = `
CREATE INDEX shipments_arrivals ON shipments (pod_ata_at, id, shipping_line_scac, pol_locode, pod_locode,
  pod_original_eta_at, pod_eta_at, pol_atd_at, created_at, destination_terminal_id) WHERE pod_ata_at IS NOT NULL;
CREATE INDEX containers_dwell ON containers (shipment_id, pod_terminal_id, ind_ata_at, pod_rail_loaded_at, lfd_source,
  pod_discharged_at, pod_full_out_at, final_destination_full_out_at, empty_terminated_at, lfd_deadline_at, id)
  WHERE shipment_id IS NOT NULL;
DROP INDEX transport_events_container;
CREATE INDEX transport_events_container ON transport_events (container_key, timestamp, event_key, invalidated_at);
`;
