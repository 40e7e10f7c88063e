/**
 * A list exported as one file per customer (`export:perCustomer`, the CLI's `export … --per
 * customer`): which lists can be, and what the export answers.
 */
import type { ListName } from './list-views';

/** The lists whose rows name a customer (email submissions name none). */
export const perCustomerLists: readonly ListName[] = ['shipments', 'containers', 'trackingRequests'];

export const splitsByCustomer = (list: ListName): boolean => perCustomerLists.includes(list);

/** The file of the rows that name no customer (or a blank name). */
export const NO_CUSTOMER_FILE = 'No customer';

export interface PerCustomerFile {
  /** The customer's name as the list shows it; null for the rows without one. */
  customer: string | null;
  /** The file's name, in `folder`. */
  file: string;
  rows: number;
}

export interface PerCustomerExport {
  /** The absolute folder written to. */
  folder: string;
  /** One per customer with rows, in the order of their names (the rows without a customer last). */
  files: PerCustomerFile[];
  /** Rows in all the files. */
  rows: number;
  /**
   * How many files already in the folder had a name the export would have used: they were left
   * as they were, and the new file took a number after its name (" (2)").
   */
  kept: number;
}

export interface PerCustomerExportResult extends Omit<PerCustomerExport, 'folder'> {
  /** Null when the folder dialog was cancelled (nothing was written). */
  folder: string | null;
  cancelled: boolean;
}
