/**
 * The errors both store drivers raise, so repositories see one error per failure whatever the driver.
 */
import { conflict, invalid, TagsonicError, unavailable, unsupported } from '../errors/index.ts';

export const STORE_ERRORS = {
  duplicateKey: 'TAGSONIC_ERR_STORE_DUPLICATE_KEY',
  invalidDocument: 'TAGSONIC_ERR_STORE_INVALID_DOCUMENT',
  invalidUpdate: 'TAGSONIC_ERR_STORE_INVALID_UPDATE',
  immutableId: 'TAGSONIC_ERR_STORE_IMMUTABLE_ID',
  invalidQuery: 'TAGSONIC_ERR_STORE_INVALID_QUERY',
  invalidName: 'TAGSONIC_ERR_STORE_INVALID_NAME',
  indexConflict: 'TAGSONIC_ERR_STORE_INDEX_CONFLICT',
  unsupported: 'TAGSONIC_ERR_STORE_UNSUPPORTED',
  unavailable: 'TAGSONIC_ERR_STORE_UNAVAILABLE',
  closed: 'TAGSONIC_ERR_STORE_CLOSED',
} as const;

export const duplicateKeyError = (collection: string, index: string, key: Record<string, unknown>): TagsonicError =>
  conflict(
    STORE_ERRORS.duplicateKey,
    `A document with the same ${Object.keys(key).join(', ')} already exists in ${collection} (unique index ${index}).`,
    { collection, index, key },
  );

export const invalidDocumentError = (message: string): TagsonicError => invalid(STORE_ERRORS.invalidDocument, message);

export const invalidUpdateError = (message: string): TagsonicError => invalid(STORE_ERRORS.invalidUpdate, message);

export const immutableIdError = (collection: string): TagsonicError =>
  invalid(STORE_ERRORS.immutableId, `An update may not change the _id of a document in ${collection}.`, { collection });

export const invalidQueryError = (message: string, cause?: unknown): TagsonicError =>
  new TagsonicError('invalid', STORE_ERRORS.invalidQuery, message, { cause });

export const unsupportedError = (message: string): TagsonicError => unsupported(STORE_ERRORS.unsupported, message);

export const indexConflictError = (collection: string, message: string): TagsonicError =>
  conflict(STORE_ERRORS.indexConflict, message, { collection });

export const storeUnavailableError = (message: string, cause?: unknown): TagsonicError =>
  unavailable(STORE_ERRORS.unavailable, message, cause);

export const storeClosedError = (): TagsonicError => unavailable(STORE_ERRORS.closed, 'The store has been closed.');

const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/;

export function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name) || name.startsWith('system.')) {
    throw invalid(STORE_ERRORS.invalidName, `"${name}" is not a valid collection name (letters, digits, _ . - only).`);
  }
}

/** Both drivers insist on the application's string ids so that documents look the same everywhere. */
export function assertDocumentId(doc: unknown): asserts doc is { _id: string } {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw invalidDocumentError('A document must be an object.');
  const id = (doc as { _id?: unknown })._id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 512) {
    throw invalidDocumentError('A document needs a non-empty string _id (see newId()).');
  }
}

/** Default index name, as MongoDB builds it: `albumId_1_disc_1`. */
export const defaultIndexName = (keys: Record<string, 1 | -1>): string =>
  Object.entries(keys)
    .map(([k, d]) => `${k}_${d}`)
    .join('_');
