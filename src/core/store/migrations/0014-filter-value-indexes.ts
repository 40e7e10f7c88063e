/**
 * Migration 0014, filter value indexes, so a filter chip's values are counted from an index alone.
 *
 * A chip (customer, carrier, port, terminal, hold type) lists each value in the data with how many
 * rows carry it. Counted over the table, each row read for its `synced_at`, that took most of a
 * second over 100k shipments. Each index below holds only the rows the service has given, with
 * the columns the count and the name need, so the count reads the index alone. The customers'
 * index is in the order the chip shows them (ignoring case, then exactly), so their first values
 * and those that start with the typed text are read a page at a time. Held containers are few:
 * their index holds them alone. Together about 200 bytes a shipment.
 */
export const up = `
CREATE INDEX shipments_customer_values ON shipments (customer_name COLLATE NOCASE, customer_name)
  WHERE synced_at IS NOT NULL;
CREATE INDEX shipments_carrier_values ON shipments (shipping_line_scac, shipping_line_name) WHERE synced_at IS NOT NULL;
CREATE INDEX shipments_pol_values ON shipments (pol_locode, pol_name) WHERE synced_at IS NOT NULL;
CREATE INDEX shipments_pod_values ON shipments (pod_locode, pod_name) WHERE synced_at IS NOT NULL;
CREATE INDEX shipments_destination_values ON shipments (destination_locode, destination_name)
  WHERE synced_at IS NOT NULL;
CREATE INDEX shipments_terminal_values ON shipments (pod_terminal_id) WHERE synced_at IS NOT NULL;
CREATE INDEX containers_held ON containers (holds_count) WHERE synced_at IS NOT NULL AND holds_count > 0;
`;
