/**
 * The child-list step of a sync: lists the service keeps under each record of another resource
 * (`api.under` of a descriptor: custom field options under their definition, a container's raw
 * events), one request per parent, after the walks, at background priority within the limiter.
 * Which parents, how many and in what order the descriptor declares (`ChildList.fresh`, `budget`,
 * `order`); each read is kept with the parent's change it saw (`child_list_reads`). Each record is
 * given the relationship to its parent that the list leaves out, in the descriptor's `key`
 * column; rows of a parent its list no longer names are removed. A parent the service no longer
 * has (404) is recorded as read; any other failure ends the run as a walk's would.
 */
import { listResources, readLink } from '../api/document';
import { ApiError } from '../api/errors';
import { descriptors, PAGE_SIZE, type ResourceName } from '../resources';
import type { ChildList } from '../resources/define';
import type { Db } from '../store/database';
import { dueParents, replaceChildList, type DueParent } from '../store/queries/child-lists';
import type { StoredResource } from '../store/resource';
import type { SyncClient } from './types';
import { frameOf } from './page-handle';
import { PageGuard } from './walk';

interface Child {
  resource: ResourceName;
  under: ChildList;
}

const children: readonly Child[] = descriptors.flatMap((d) =>
  d.api?.under ? [{ resource: d.name as ResourceName, under: d.api.under }] : [],
);

/** Progress step keys and labels of the child lists, for the engine's step names. */
export const childSteps: readonly (readonly [string, string])[] = children.map((c) => [
  `children:${c.resource}`,
  c.under.step,
]);

/** The child lists a run reads: each child's parents due (fresh, within budget, in order). */
export function childListsDue(
  db: Db,
  mode: 'full' | 'incremental',
  now: Date,
): { child: Child; parents: DueParent[] }[] {
  return children
    .map((child) => ({ child, parents: dueParents(db, child.resource, child.under, mode, now) }))
    .filter((due) => due.parents.length > 0);
}

export interface ChildListContext {
  db: Db;
  client: SyncClient;
  signal?: AbortSignal;
  now: () => Date;
  /** After each parent's list: its step key and the records it wrote by type. */
  onFetched: (step: string, counts: Record<string, number>) => void;
}

/** Reads one parent's list, every page, and writes it with the parent relationship set. */
async function readList(ctx: ChildListContext, { child, parent }: { child: Child; parent: DueParent }): Promise<void> {
  const { under } = child;
  const guard = new PageGuard(under.step.toLowerCase());
  const records: StoredResource[] = [];
  try {
    let url: string | null = null;
    let doc = await ctx.client.get(under.path.replace('{id}', encodeURIComponent(parent.id)), {
      query: { 'page[size]': PAGE_SIZE },
      priority: 'background',
      signal: ctx.signal,
    });
    for (;;) {
      guard.served(url, frameOf(doc));
      const rows = listResources(doc) as StoredResource[];
      // One at a time: spread, a page of 200,000 rows would overflow the stack.
      for (const row of rows) records.push(row);
      const next = rows.length > 0 ? readLink(doc.links?.next) : null;
      if (!next) break;
      const problem = guard.problemWith(next);
      if (problem) throw problem;
      url = next;
      doc = await ctx.client.getUrl(next, { priority: 'background', signal: ctx.signal });
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      // The parent is gone at the service: asked again only once it changes.
      replaceChildList(ctx.db, child.resource, under.key, parent, null, ctx.now().toISOString());
      ctx.onFetched(`children:${child.resource}`, {});
      return;
    }
    throw error;
  }
  const parentType = descriptors.find((d) => d.name === under.parent)!.types[0];
  for (const record of records) {
    record.relationships = {
      ...record.relationships,
      [under.relationship]: { data: { type: parentType, id: parent.id } },
    };
  }
  const counts = replaceChildList(ctx.db, child.resource, under.key, parent, records, ctx.now().toISOString());
  ctx.onFetched(`children:${child.resource}`, counts);
}

/** Reads every due child list, three at a time. */
export async function readChildLists(
  ctx: ChildListContext,
  due: readonly { child: Child; parents: DueParent[] }[],
): Promise<void> {
  const work = due.flatMap(({ child, parents }) => parents.map((parent) => ({ child, parent })));
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (next < work.length && !failure) {
      const item = work[next++]!;
      ctx.signal?.throwIfAborted();
      try {
        await readList(ctx, item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(3, work.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}
