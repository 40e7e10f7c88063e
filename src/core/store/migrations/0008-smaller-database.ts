/**
 * Migration 0008, a smaller database: the big tables keep in `raw` only what their
 * columns do not hold (the residual, `store/residual.ts`), and two indexes no query reads go.
 *
 * Each table's existing records are stripped by `raw_residual(spec, id, raw, column…)`, which the
 * store registers on the connection before migrating: a member is left out only when the row's
 * column, as stored now, gives it back exactly, so a column an older Quayside left NULL keeps its
 * member in the residual and nothing is lost. The specs below are frozen (this text is pinned once
 * released); they are what the descriptors declared when 0008 was written (`holds`,
 * `usuallyNull`, `selfLink`), with indexes into the columns passed after `raw`.
 *
 * `containers.listed_events` holds how many events the record lists, which the sync plan read
 * from the JSON (filled before the records are stripped).
 *
 * Dropped (EXPLAIN QUERY PLAN over every store query; the writer's upsert never changes a parent's
 * id, so SQLite never looks children up through them): transport events by shipment, custom field
 * values by definition. The rewritten rows leave pages half empty: `migrate()` runs VACUUM after
 * the upgrade (`vacuumAfter`), outside its transaction.
 */
export const stripped: { table: string; columns: string; spec: string }[] = [
  {
    table: 'transport_events',
    columns:
      'container_id, shipment_id, event, timestamp, timezone, location_locode, location_id, metro_area_id, terminal_id, vessel_id, voyage_number, data_source, created_at, invalidated_at, previous_version_id',
    spec: '{"type":"transport_event","attributes":[["event",2,"value"],["timestamp",3,"value"],["timezone",4,"value"],["location_locode",5,"value"],["voyage_number",10,"value"],["data_source",11,"value"],["created_at",12,"value"],["invalidated_at",13,"value"]],"relationships":[["container",[[0,"container"]]],["shipment",[[1,"shipment"]]],["location",[[6,"port"],[7,"metro_area"]]],["terminal",[[8,"terminal"]]],["vessel",[[9,"vessel"]]],["previous_version",[[14,"transport_event"]]]],"usual":{"attributes":{"value":null},"relationships":{"source_event":{"data":null}}}}',
  },
  {
    table: 'containers',
    columns:
      'shipment_id, number, equipment_type, equipment_length, equipment_height, weight_lbs, seal_number, api_status, pod_terminal_id, pod_arrived_at, pod_discharged_at, available_for_pickup, availability_known, pickup_lfd, pickup_appointment_at, pod_full_out_at, final_destination_full_out_at, empty_terminated_at, delivered_at, empty_out_at, pol_full_in_at, pol_vessel_loaded_at, pol_vessel_departed_at, location_at_pod_terminal, pod_rail_carrier_scac, ind_rail_carrier_scac, pod_rail_loaded_at, pod_rail_departed_at, ind_eta_at, ind_ata_at, pod_timezone, terminal_checked_at, ref_numbers, created_at',
    spec: '{"type":"container","attributes":[["number",1,"value"],["equipment_type",2,"value"],["equipment_length",3,"value"],["equipment_height",4,"value"],["weight_in_lbs",5,"value"],["seal_number",6,"value"],["current_status",7,"value"],["pod_arrived_at",9,"value"],["pod_discharged_at",10,"value"],["available_for_pickup",11,"flag"],["availability_known",12,"flag"],["pickup_lfd",13,"value"],["pickup_appointment_at",14,"value"],["pod_full_out_at",15,"value"],["final_destination_full_out_at",16,"value"],["empty_terminated_at",17,"value"],["delivered_at",18,"value"],["empty_out_at",19,"value"],["pol_full_in_at",20,"value"],["pol_vessel_loaded_at",21,"value"],["pol_vessel_departed_at",22,"value"],["location_at_pod_terminal",23,"value"],["pod_rail_carrier_scac",24,"value"],["ind_rail_carrier_scac",25,"value"],["pod_rail_loaded_at",26,"value"],["pod_rail_departed_at",27,"value"],["ind_eta_at",28,"value"],["ind_ata_at",29,"value"],["pod_timezone",30,"value"],["terminal_checked_at",31,"value"],["ref_numbers",32,"json"],["created_at",33,"value"]],"relationships":[["shipment",[[0,"shipment"]]],["pod_terminal",[[8,"terminal"]]],["pickup_facility",[[8,"terminal"]]]],"usual":{"attributes":{"holds_at_pod_terminal":[],"fees_at_pod_terminal":[],"pod_full_out_chassis_number":null,"pod_last_tracking_request_at":null,"final_destination_timezone":null,"empty_terminated_timezone":null,"ind_rail_unloaded_at":null,"ind_facility_lfd_on":null,"import_deadlines":{"pickup_lfd_terminal":null,"pickup_lfd_rail":null,"pickup_lfd_line":null},"ssl_lfd":null,"ind_facility_holds":null,"ind_facility_fees":null,"rail_last_tracking_request_at":null}},"selfLink":"/v2/containers/"}',
  },
  {
    table: 'shipments',
    columns:
      'bill_of_lading, normalized_number, shipping_line_scac, shipping_line_name, customer_name, pol_id, pol_locode, pol_name, pod_id, pod_locode, pod_name, pod_terminal_id, destination_id, destination_metro_area_id, destination_locode, destination_terminal_id, destination_name, pod_vessel_name, pod_vessel_imo, pod_voyage_number, pol_etd_at, pol_original_etd_at, pol_atd_at, pod_eta_at, pod_original_eta_at, pod_ata_at, destination_eta_at, destination_ata_at, destination_original_eta_at, pol_timezone, pod_timezone, destination_timezone, tracking_stopped_at, tracking_stopped_reason, ref_numbers, tags, created_at',
    spec: '{"type":"shipment","attributes":[["bill_of_lading_number",0,"value"],["normalized_number",1,"value"],["shipping_line_scac",2,"value"],["shipping_line_name",3,"value"],["customer_name",4,"value"],["port_of_lading_locode",6,"value"],["port_of_lading_name",7,"value"],["port_of_discharge_locode",9,"value"],["port_of_discharge_name",10,"value"],["destination_locode",14,"value"],["destination_name",16,"value"],["pod_vessel_name",17,"value"],["pod_vessel_imo",18,"value"],["pod_voyage_number",19,"value"],["pol_etd_at",20,"value"],["pol_original_etd_at",21,"value"],["pol_atd_at",22,"value"],["pod_eta_at",23,"value"],["pod_original_eta_at",24,"value"],["pod_ata_at",25,"value"],["destination_eta_at",26,"value"],["destination_ata_at",27,"value"],["destination_original_eta_at",28,"value"],["pol_timezone",29,"value"],["pod_timezone",30,"value"],["destination_timezone",31,"value"],["line_tracking_stopped_at",32,"value"],["line_tracking_stopped_reason",33,"value"],["ref_numbers",34,"json"],["tags",35,"json"],["created_at",36,"value"]],"relationships":[["port_of_lading",[[5,"port"]]],["port_of_discharge",[[8,"port"]]],["pod_terminal",[[11,"terminal"]]],["destination",[[12,"port"],[13,"metro_area"]]],["destination_terminal",[[15,"terminal"]]]],"usual":{"relationships":{"line_tracking_stopped_by_user":{"data":null}}},"selfLink":"/v2/shipments/"}',
  },
  {
    table: 'tracking_requests',
    columns:
      'request_number, request_type, scac, status, failed_reason, is_retrying, retry_count, shipment_id, customer_id, ref_numbers, created_at, updated_at',
    spec: '{"type":"tracking_request","attributes":[["request_number",0,"value"],["request_type",1,"value"],["scac",2,"value"],["status",3,"value"],["failed_reason",4,"value"],["is_retrying",5,"flag"],["retry_count",6,"value"],["ref_numbers",9,"json"],["created_at",10,"value"],["updated_at",11,"value"]],"relationships":[["tracked_object",[[7,"shipment"]]],["customer",[[8,"party"]]]],"usual":{"attributes":{"shipment_tags":[]}},"selfLink":"/v2/tracking_requests/"}',
  },
  {
    table: 'custom_fields',
    columns: 'entity_type, entity_id, definition_id, api_slug, value, display_value',
    spec: '{"type":"custom_field","attributes":[["api_slug",3,"value"],["value",4,"json"],["display_value",5,"value"]],"relationships":[["entity",[[1,0]]],["definition",[[2,"custom_field_definition"]]]],"selfLink":"/v2/custom_fields/"}',
  },
];

export const up = `
DROP INDEX transport_events_shipment;
DROP INDEX custom_fields_definition_id;
ALTER TABLE containers ADD COLUMN listed_events INTEGER;
UPDATE containers SET listed_events = json_array_length(raw, '$.relationships.transport_events.data')
  WHERE raw IS NOT NULL;
${stripped
  .map((t) => `UPDATE ${t.table} SET raw = raw_residual('${t.spec}', id, raw, ${t.columns}) WHERE raw IS NOT NULL;`)
  .join('\n')}
`;
