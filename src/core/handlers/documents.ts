/**
 * Documents on the detail pages: the list of a shipment's or container's documents, and opening
 * one with the computer's viewer (the kept file, offline; else fetched first at user priority,
 * within the open limit, through the limiter for its link). Opening is main's (`openPath`), and
 * is handed only a file whose name is a document type and whose first bytes agree, checked again
 * at each open; any other file is shown in its folder (`showItemInFolder`), never opened.
 */
import { open as openFile } from 'node:fs/promises';
import type { DocumentInfo, DocumentOpened } from '../../shared/documents';
import type { Handlers } from '../../shared/ipc';
import { QuaysideError } from '../errors';
import { documentById, documentsForRecord, type DocumentRow } from '../store/queries/documents';
import { fetchDocumentFile, OPEN_LIMIT } from '../sync/document-download';
import { keepFiles } from '../sync/document-files';
import {
  DATA_EXTENSION,
  dataSentence,
  DOCUMENT_TYPES,
  extensionOf,
  HEAD_BYTES,
  insideFolder,
  keptAs,
} from '../sync/document-names';
import { toActionError } from './api-errors';
import type { CoreContext } from './context';

/** The sentence for a kept file that is not opened, from its names alone (the list's view; open reads its bytes). */
function dataNote(path: string | null, fileName: string | null): string | null {
  if (path === null) return null;
  const ext = extensionOf(path);
  if (ext !== DATA_EXTENSION && DOCUMENT_TYPES[ext] !== undefined) return null;
  const named = extensionOf(fileName ?? '');
  return dataSentence(
    named !== '' && DOCUMENT_TYPES[named] === undefined
      ? `.${named} files are not among the document types it opens`
      : 'its contents are a program, or not what its name says',
  );
}

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
    keptAsData: row.file_current === 1 ? dataNote(row.file_path, row.file_name) : null,
    problem: row.file_current === 1 ? null : row.file_problem,
    retryAt: row.file_current === 1 || row.file_retry_at === null ? null : new Date(row.file_retry_at).toISOString(),
  };
}

/**
 * Why a kept file must not be opened, from the service's name for it and the file's own first
 * bytes now (not when it was kept: a file can change on disk); null when it may.
 */
async function refusal(path: string, fileName: string | null): Promise<string | null> {
  const handle = await openFile(path, 'r').catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
    throw new QuaysideError('not_found', "This document's kept file is gone from the documents folder.");
  });
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    const kept = keptAs(fileName, head.subarray(0, bytesRead));
    if ('data' in kept) return dataSentence(kept.data);
    return kept.ext === extensionOf(path) ? null : dataSentence('its contents are not what its name says');
  } finally {
    await handle.close();
  }
}

export function documentHandlers(
  ctx: CoreContext,
): Pick<Handlers, 'documents:forRecord' | 'documents:open' | 'documents:showInFolder'> {
  /** The document's row with its file kept, fetched first (within the open limit) when it is not. */
  const withFile = async (id: string): Promise<{ row: DocumentRow; fetched: boolean; dir: string }> => {
    const session = await ctx.session();
    const row = documentById(session.db, id);
    if (!row) throw new QuaysideError('not_found', 'This document is not in the local copy; a sync brings it.');
    if (row.file_current === 1) return { row, fetched: false, dir: session.documentsDir };
    const client = session.client;
    if (!client) throw new QuaysideError('needs_connection', session.noKeyMessage);
    const dir = session.documentsDir;
    try {
      await fetchDocumentFile(
        {
          db: session.db,
          client,
          options: { dir, limits: () => ({ maxFileMb: 0, maxTotalMb: 0 }) },
          keep: (files) => keepFiles(session.db, dir, files),
        },
        row,
        'user',
        OPEN_LIMIT,
      );
    } catch (error) {
      throw error instanceof QuaysideError ? error : toActionError(error);
    }
    ctx.events.emit('data:changed');
    return { row: documentById(session.db, id)!, fetched: true, dir };
  };

  return {
    'documents:forRecord': async ({ id }) => documentsForRecord((await ctx.session()).db, id).map(infoOf),
    'documents:open': async ({ id }): Promise<DocumentOpened> => {
      const open = ctx.options.openPath;
      if (!open) throw new QuaysideError('internal', 'Files cannot be opened from here.');
      const { row, fetched, dir } = await withFile(id);
      const path = insideFolder(dir, row.file_path!);
      const notOpened = await refusal(path, row.file_name);
      if (notOpened !== null) return { opened: false, fetched, notOpened };
      const problem = await open(path);
      if (problem) throw new QuaysideError('internal', `The file could not be opened: ${problem}`);
      return { opened: true, fetched, notOpened: null };
    },
    'documents:showInFolder': async ({ id }) => {
      const show = ctx.options.showItemInFolder;
      if (!show) throw new QuaysideError('internal', 'Folders cannot be shown from here.');
      const session = await ctx.session();
      const row = documentById(session.db, id);
      if (!row?.file_path) throw new QuaysideError('not_found', "This document's file is not kept on this computer.");
      show(insideFolder(session.documentsDir, row.file_path));
      return { shown: true };
    },
  };
}
