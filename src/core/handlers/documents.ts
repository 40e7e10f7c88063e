/**
 * Documents on the detail pages: the list of a shipment's or container's documents, and opening
 * one with the computer's viewer (the kept file, offline; else fetched first at user priority,
 * whatever its size, through the limiter for its link). Opening is main's (`openPath`).
 */
import type { DocumentInfo } from '../../shared/documents';
import type { Handlers } from '../../shared/ipc';
import { QuaysideError } from '../errors';
import { documentById, documentsForRecord, type DocumentRow } from '../store/queries/documents';
import { fetchDocumentFile, insideFolder, ON_DEMAND_MAX_BYTES } from '../sync/document-files';
import { toActionError } from './api-errors';
import type { CoreContext } from './context';

function infoOf(row: DocumentRow): DocumentInfo {
  return {
    id: row.id,
    name: row.name,
    type: row.document_type,
    typeLabel: row.type_label,
    schemaId: row.schema_id,
    source: row.source,
    fileName: row.file_name,
    contentType: row.content_type,
    sizeBytes: row.size_bytes,
    createdAt: row.created_at,
    emailSubject: row.email_subject,
    kept: row.file_current === 1,
  };
}

export function documentHandlers(ctx: CoreContext): Pick<Handlers, 'documents:forRecord' | 'documents:open'> {
  return {
    'documents:forRecord': async ({ id }) => documentsForRecord((await ctx.session()).db, id).map(infoOf),
    'documents:open': async ({ id }) => {
      const session = await ctx.session();
      let row = documentById(session.db, id);
      if (!row) throw new QuaysideError('not_found', 'This document is not in the local copy; a sync brings it.');
      const open = ctx.options.openPath;
      if (!open) throw new QuaysideError('internal', 'Files cannot be opened from here.');
      let fetched = false;
      if (row.file_current !== 1) {
        const client = session.client;
        if (!client) throw new QuaysideError('needs_connection', session.noKeyMessage);
        try {
          await fetchDocumentFile(
            {
              db: session.db,
              client,
              options: { dir: session.documentsDir, limits: () => ({ maxFileMb: 0, maxTotalMb: 0 }) },
            },
            row,
            'user',
            ON_DEMAND_MAX_BYTES,
          );
        } catch (error) {
          throw error instanceof QuaysideError ? error : toActionError(error);
        }
        fetched = true;
        row = documentById(session.db, id)!;
        ctx.events.emit('data:changed');
      }
      const problem = await open(insideFolder(session.documentsDir, row.file_path!));
      if (problem) throw new QuaysideError('internal', `The file could not be opened: ${problem}`);
      return { opened: true, fetched };
    },
  };
}
