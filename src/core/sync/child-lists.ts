/**
 * The child-list step of a sync: lists the service keeps under each record of another resource
 * (`api.under` of a descriptor: custom field options under their definition), read in the runs
 * that walk the parent, after the walks, one parent at a time at background priority within the
 * limiter. Each record is given the relationship to its parent that the list leaves out; rows of a
 * parent its list no longer names are removed. A parent the service no longer has (404) is
 * skipped; any other failure ends the run as a walk's would.
 */
import { listResources, readLink } from '../api/document';
import { ApiError } from '../api/errors';
import { descriptors, PAGE_SIZE, type ResourceName } from '../resources';
import type { ChildList } from '../resources/define';
import type { Db } from '../store/database';
import { childListParents, replaceChildList } from '../store/queries/child-lists';
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

/** The child lists a run reads: those whose parent it walks, with each parent's id. */
export function childListsDue(db: Db, walked: ReadonlySet<string>): { child: Child; parents: string[] }[] {
  return children
    .filter((c) => walked.has(c.under.parent))
    .map((child) => ({
      child,
      parents: childListParents(
        db,
        child.under.parent as ResourceName,
        child.under.where.column,
        child.under.where.values,
      ),
    }));
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
async function readList(ctx: ChildListContext, { child, parent }: { child: Child; parent: string }): Promise<void> {
  const { under } = child;
  const guard = new PageGuard(under.step.toLowerCase());
  const records: StoredResource[] = [];
  try {
    let url: string | null = null;
    let doc = await ctx.client.get(under.path.replace('{id}', encodeURIComponent(parent)), {
      query: { 'page[size]': PAGE_SIZE },
      priority: 'background',
      signal: ctx.signal,
    });
    for (;;) {
      guard.served(url, frameOf(doc));
      const rows = listResources(doc) as StoredResource[];
      records.push(...rows);
      const next = rows.length > 0 ? readLink(doc.links?.next) : null;
      if (!next) break;
      const problem = guard.problemWith(next);
      if (problem) throw problem;
      url = next;
      doc = await ctx.client.getUrl(next, { priority: 'background', signal: ctx.signal });
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      ctx.onFetched(`children:${child.resource}`, {});
      return; // the parent is gone at the service
    }
    throw error;
  }
  const parentType = descriptors.find((d) => d.name === under.parent)!.types[0];
  for (const record of records) {
    record.relationships = {
      ...record.relationships,
      [under.relationship]: { data: { type: parentType, id: parent } },
    };
  }
  const counts = replaceChildList(
    ctx.db,
    child.resource,
    `${under.relationship}_id`,
    parent,
    records,
    ctx.now().toISOString(),
  );
  ctx.onFetched(`children:${child.resource}`, counts);
}

/** Reads every due child list, three at a time. */
export async function readChildLists(
  ctx: ChildListContext,
  due: readonly { child: Child; parents: string[] }[],
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
