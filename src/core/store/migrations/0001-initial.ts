/**
 * The first schema. Every synced resource keeps the API's whole resource object in `raw`
 * beside the columns views filter and sort on; a reference to a resource not synced yet is a
 * stub row (`raw` NULL) so foreign keys hold while pages arrive in any order.
 */
export const up = `
CREATE TABLE shipping_lines (
  id TEXT PRIMARY KEY,
  scac TEXT,
  name TEXT,
  short_name TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;
CREATE INDEX shipping_lines_scac ON shipping_lines (scac);

CREATE TABLE ports (
  id TEXT PRIMARY KEY,
  code TEXT,
  name TEXT,
  city TEXT,
  state_abbr TEXT,
  country_code TEXT,
  time_zone TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;
CREATE INDEX ports_code ON ports (code);

CREATE TABLE terminals (
  id TEXT PRIMARY KEY,
  port_id TEXT REFERENCES ports (id),
  name TEXT,
  nickname TEXT,
  firms_code TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;

CREATE TABLE vessels (
  id TEXT PRIMARY KEY,
  name TEXT,
  imo TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;
CREATE INDEX vessels_imo ON vessels (imo);

CREATE TABLE parties (
  id TEXT PRIMARY KEY,
  company_name TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;

CREATE TABLE shipments (
  id TEXT PRIMARY KEY,
  bill_of_lading TEXT,
  normalized_number TEXT,
  shipping_line_scac TEXT,
  shipping_line_name TEXT,
  customer_name TEXT,
  pol_id TEXT REFERENCES ports (id),
  pol_locode TEXT,
  pol_name TEXT,
  pod_id TEXT REFERENCES ports (id),
  pod_locode TEXT,
  pod_name TEXT,
  pod_terminal_id TEXT REFERENCES terminals (id),
  destination_id TEXT REFERENCES ports (id),
  destination_locode TEXT,
  destination_name TEXT,
  pod_vessel_name TEXT,
  pod_vessel_imo TEXT,
  pod_voyage_number TEXT,
  pol_etd_at TEXT,
  pol_atd_at TEXT,
  pod_eta_at TEXT,
  pod_original_eta_at TEXT,
  pod_ata_at TEXT,
  destination_eta_at TEXT,
  destination_ata_at TEXT,
  pol_timezone TEXT,
  pod_timezone TEXT,
  destination_timezone TEXT,
  eta_slip_hours REAL,
  tracking_stopped_at TEXT,
  tracking_stopped_reason TEXT,
  ref_numbers TEXT NOT NULL DEFAULT '[]',
  tags TEXT NOT NULL DEFAULT '[]',
  container_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;
CREATE INDEX shipments_created ON shipments (created_at, id);
CREATE INDEX shipments_eta ON shipments (pod_eta_at, id);
CREATE INDEX shipments_ata ON shipments (pod_ata_at, id);
CREATE INDEX shipments_bl ON shipments (bill_of_lading, id);
CREATE INDEX shipments_scac ON shipments (shipping_line_scac, id);
CREATE INDEX shipments_pod ON shipments (pod_locode, id);
CREATE INDEX shipments_customer ON shipments (customer_name, id);
CREATE INDEX shipments_stopped ON shipments (tracking_stopped_at);
-- Counting what the views show reads only these (stubs have no synced_at).
CREATE INDEX shipments_live ON shipments (synced_at) WHERE synced_at IS NOT NULL;

CREATE TABLE shipment_tags (
  shipment_id TEXT NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  PRIMARY KEY (shipment_id, tag)
) STRICT, WITHOUT ROWID;
CREATE INDEX shipment_tags_tag ON shipment_tags (tag);

CREATE TABLE containers (
  id TEXT PRIMARY KEY,
  shipment_id TEXT REFERENCES shipments (id),
  number TEXT,
  equipment_type TEXT,
  equipment_length INTEGER,
  equipment_height TEXT,
  weight_lbs REAL,
  seal_number TEXT,
  api_status TEXT,
  status TEXT,
  pod_terminal_id TEXT REFERENCES terminals (id),
  pod_arrived_at TEXT,
  pod_discharged_at TEXT,
  available_for_pickup INTEGER,
  availability_known INTEGER,
  pickup_lfd TEXT,
  last_free_day TEXT,
  lfd_deadline_at TEXT,
  lfd_timezone TEXT,
  holds TEXT NOT NULL DEFAULT '[]',
  hold_types TEXT,
  holds_count INTEGER NOT NULL DEFAULT 0,
  fees_total REAL,
  pickup_ready INTEGER NOT NULL DEFAULT 0,
  pickup_appointment_at TEXT,
  pod_full_out_at TEXT,
  final_destination_full_out_at TEXT,
  empty_terminated_at TEXT,
  location_at_pod_terminal TEXT,
  pod_rail_carrier_scac TEXT,
  ind_rail_carrier_scac TEXT,
  pod_rail_loaded_at TEXT,
  pod_rail_departed_at TEXT,
  ind_eta_at TEXT,
  ind_ata_at TEXT,
  pod_timezone TEXT,
  terminal_checked_at TEXT,
  ref_numbers TEXT NOT NULL DEFAULT '[]',
  created_at TEXT,
  raw TEXT,
  raw_hash TEXT,
  synced_at TEXT,
  changed_at TEXT,
  events_synced_at TEXT
) STRICT;
CREATE INDEX containers_shipment ON containers (shipment_id);
CREATE INDEX containers_created ON containers (created_at, id);
CREATE INDEX containers_number ON containers (number, id);
CREATE INDEX containers_status ON containers (status, id);
CREATE INDEX containers_lfd ON containers (lfd_deadline_at, id);
CREATE INDEX containers_discharged ON containers (pod_discharged_at, id);
CREATE INDEX containers_live ON containers (status, synced_at) WHERE synced_at IS NOT NULL;

CREATE TABLE transport_events (
  id TEXT PRIMARY KEY,
  container_id TEXT NOT NULL REFERENCES containers (id) ON DELETE CASCADE,
  shipment_id TEXT REFERENCES shipments (id),
  event TEXT,
  timestamp TEXT,
  timezone TEXT,
  location_locode TEXT,
  location_id TEXT REFERENCES ports (id),
  terminal_id TEXT REFERENCES terminals (id),
  vessel_id TEXT REFERENCES vessels (id),
  voyage_number TEXT,
  data_source TEXT,
  created_at TEXT,
  raw TEXT NOT NULL,
  synced_at TEXT
) STRICT;
CREATE INDEX transport_events_container ON transport_events (container_id, timestamp);
-- SQLite looks up child rows through these when a parent row is written; unindexed, that is a scan.
CREATE INDEX transport_events_shipment ON transport_events (shipment_id);

CREATE TABLE tracking_requests (
  id TEXT PRIMARY KEY,
  request_number TEXT,
  request_type TEXT,
  scac TEXT,
  status TEXT,
  failed_reason TEXT,
  is_retrying INTEGER,
  retry_count INTEGER,
  shipment_id TEXT REFERENCES shipments (id),
  customer_id TEXT REFERENCES parties (id),
  ref_numbers TEXT NOT NULL DEFAULT '[]',
  tags TEXT NOT NULL DEFAULT '[]',
  created_at TEXT,
  updated_at TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;
CREATE INDEX tracking_requests_created ON tracking_requests (created_at, id);
CREATE INDEX tracking_requests_updated ON tracking_requests (updated_at, id);
CREATE INDEX tracking_requests_status ON tracking_requests (status, id);
CREATE INDEX tracking_requests_number ON tracking_requests (request_number);
CREATE INDEX tracking_requests_shipment ON tracking_requests (shipment_id);

CREATE TABLE custom_field_definitions (
  id TEXT PRIMARY KEY,
  entity_type TEXT,
  api_slug TEXT,
  display_name TEXT,
  data_type TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;

CREATE TABLE email_submissions (
  id TEXT PRIMARY KEY,
  subject TEXT,
  sent_at TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  url TEXT,
  active INTEGER,
  raw TEXT,
  synced_at TEXT
) STRICT;

-- Cursors and page checkpoints: a sync killed anywhere resumes from here.
CREATE TABLE sync_state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE sync_log (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL,
  requests INTEGER NOT NULL DEFAULT 0,
  rate_limited INTEGER NOT NULL DEFAULT 0,
  counts TEXT NOT NULL DEFAULT '{}',
  error TEXT
) STRICT;

-- Full-text search with trigram tokens (any 3+ character substring): one row per shipment
-- (its numbers, containers, references, tags, vessel, ports, customer), per container (its number
-- and its shipment's) and per tracking request, each keyed by its table's rowid.
CREATE VIRTUAL TABLE shipment_search USING fts5 (body, tokenize = 'trigram');
CREATE VIRTUAL TABLE container_search USING fts5 (body, tokenize = 'trigram');
CREATE VIRTUAL TABLE tracking_request_search USING fts5 (body, tokenize = 'trigram');
`;
