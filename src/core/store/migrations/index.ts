import * as m0001 from './0001-initial';
import * as m0002 from './0002-search-merges-between-pages';
import * as m0003 from './0003-metro-areas-and-locations';
import * as m0004 from './0004-live-service-attributes';
import * as m0005 from './0005-whole-service';
import * as m0006 from './0006-forwarder-workflows';
import * as m0007 from './0007-alerts-and-scale';
import * as m0008 from './0008-smaller-database';
import * as m0009 from './0009-interned-keys';
import * as m0010 from './0010-leaner-indexes';
import * as m0011 from './0011-index-only-counts';
import * as m0012 from './0012-document-file-problems';
import * as m0013 from './0013-raw-events';
import * as m0014 from './0014-filter-value-indexes';
import * as m0015 from './0015-insights-indexes';
import * as m0016 from './0016-shipment-search-boxes';
import * as m0017 from './0017-leaner-boxes-and-shipments';

export interface Migration {
  version: number;
  name: string;
  up: string;
  /**
   * Run VACUUM once the migration has committed, on a database that had rows before it: a
   * migration that rewrites most rows (0008 strips raw) leaves pages half empty, which only a
   * VACUUM gives back (it cannot run inside the migration's transaction).
   */
  vacuumAfter?: boolean;
}

/** Every schema version in order; a migration is never edited once released, only added. */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial', up: m0001.up },
  { version: 2, name: 'search-merges-between-pages', up: m0002.up },
  { version: 3, name: 'metro-areas-and-locations', up: m0003.up },
  { version: 4, name: 'live-service-attributes', up: m0004.up },
  { version: 5, name: 'whole-service', up: m0005.up },
  { version: 6, name: 'forwarder-workflows', up: m0006.up },
  { version: 7, name: 'alerts-and-scale', up: m0007.up },
  { version: 8, name: 'smaller-database', up: m0008.up, vacuumAfter: true },
  { version: 9, name: 'interned-keys', up: m0009.up, vacuumAfter: true },
  { version: 10, name: 'leaner-indexes', up: m0010.up, vacuumAfter: true },
  { version: 11, name: 'index-only-counts', up: m0011.up },
  { version: 12, name: 'document-file-problems', up: m0012.up },
  { version: 13, name: 'raw-events', up: m0013.up },
  { version: 14, name: 'filter-value-indexes', up: m0014.up },
  { version: 15, name: 'insights-indexes', up: m0015.up },
  { version: 16, name: 'shipment-search-boxes', up: m0016.up },
  { version: 17, name: 'leaner-boxes-and-shipments', up: m0017.up },
];
