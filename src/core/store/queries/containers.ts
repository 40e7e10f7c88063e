/** The containers list's queries (declared in src/core/resources/containers.ts), by their old names. */
import { listQueries } from './list-view';

export const containerView = listQueries.containers;
export const listContainers = containerView.page;
export const countContainers = containerView.count;
export const iterateContainers = containerView.iterate;
export const getContainerRow = containerView.get;
