/** The shipments list's queries (declared in src/core/resources/shipments.ts), by their old names. */
import { listQueries } from './list-view';

export const shipmentView = listQueries.shipments;
export const listShipments = shipmentView.page;
export const countShipments = shipmentView.count;
export const iterateShipments = shipmentView.iterate;
export const getShipmentRow = shipmentView.get;
