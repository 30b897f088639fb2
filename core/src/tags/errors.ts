import { TagsonicError, conflict, invalid, notFound, unavailable, unsupported } from '../errors/index.ts';

/** Every error code the tag engine raises, in one place so surfaces can map them. */
export const TAG_ERRORS = {
  NOT_FOUND: 'TAGSONIC_ERR_TAGS_NOT_FOUND',
  NOT_A_FILE: 'TAGSONIC_ERR_TAGS_NOT_A_FILE',
  EMPTY_FILE: 'TAGSONIC_ERR_TAGS_EMPTY_FILE',
  UNSUPPORTED_FORMAT: 'TAGSONIC_ERR_TAGS_UNSUPPORTED_FORMAT',
  UNREADABLE: 'TAGSONIC_ERR_TAGS_UNREADABLE',
  TRUNCATED: 'TAGSONIC_ERR_TAGS_TRUNCATED',
  READ_TIMEOUT: 'TAGSONIC_ERR_TAGS_READ_TIMEOUT',
  INVALID_VALUE: 'TAGSONIC_ERR_TAGS_INVALID_VALUE',
  FIELD_UNSUPPORTED: 'TAGSONIC_ERR_TAGS_FIELD_UNSUPPORTED',
  ARTWORK_UNSUPPORTED: 'TAGSONIC_ERR_TAGS_ARTWORK_UNSUPPORTED',
  ARTWORK_INVALID: 'TAGSONIC_ERR_TAGS_ARTWORK_INVALID',
  WRITE_FAILED: 'TAGSONIC_ERR_TAGS_WRITE_FAILED',
  VERIFY_MISMATCH: 'TAGSONIC_ERR_TAGS_VERIFY_MISMATCH',
  PAYLOAD_CHANGED: 'TAGSONIC_ERR_TAGS_PAYLOAD_CHANGED',
  FILE_CHANGED: 'TAGSONIC_ERR_TAGS_FILE_CHANGED',
  JOURNAL_NOT_FOUND: 'TAGSONIC_ERR_TAGS_JOURNAL_NOT_FOUND',
  NOT_UNDOABLE: 'TAGSONIC_ERR_TAGS_NOT_UNDOABLE',
  ALREADY_UNDONE: 'TAGSONIC_ERR_TAGS_ALREADY_UNDONE',
  UNDO_CONFLICT: 'TAGSONIC_ERR_TAGS_UNDO_CONFLICT',
  BLOB_MISSING: 'TAGSONIC_ERR_TAGS_BLOB_MISSING',
  POOL_CLOSED: 'TAGSONIC_ERR_TAGS_POOL_CLOSED',
  WRITE_TIMEOUT: 'TAGSONIC_ERR_TAGS_WRITE_TIMEOUT',
  WRITER_CRASHED: 'TAGSONIC_ERR_TAGS_WRITER_CRASHED',
  ENGINE_UNAVAILABLE: 'TAGSONIC_ERR_TAGS_ENGINE_UNAVAILABLE',
  FILE_TOO_LARGE: 'TAGSONIC_ERR_TAGS_FILE_TOO_LARGE',
  TAG_TOO_LARGE: 'TAGSONIC_ERR_TAGS_TAG_TOO_LARGE',
  EDIT_TOO_LARGE: 'TAGSONIC_ERR_TAGS_EDIT_TOO_LARGE',
} as const;

export { TagsonicError, conflict, invalid, notFound, unavailable, unsupported };

export const internal = (code: string, message: string, details?: Record<string, unknown>, cause?: unknown) =>
  new TagsonicError('internal', code, message, { details, cause });

/** Translate a file-system error on `path` into the engine's vocabulary; anything else passes through. */
export function fsError(err: unknown, path: string): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return notFound(TAG_ERRORS.NOT_FOUND, `No file at ${path}.`, { path });
  if (code === 'EISDIR') return invalid(TAG_ERRORS.NOT_A_FILE, `${path} is a folder, not an audio file.`, { path });
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new TagsonicError('forbidden', 'TAGSONIC_ERR_TAGS_ACCESS_DENIED', `Tagsonic may not read or write ${path} (${code}).`, {
      cause: err,
      details: { path },
    });
  }
  return err;
}
