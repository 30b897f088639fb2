/**
 * The update documents both drivers accept: MongoDB's operators that repositories use, with MongoDB's
 * path-conflict rule checked up front so both drivers reject the same updates.
 */
import { isPlainObject, splitPath } from './document-paths.ts';
import type { Update } from './port.ts';
import { invalidUpdateError, unsupportedError } from './store-errors.ts';

export const UPDATE_OPERATORS = new Set([
  '$set', '$unset', '$inc', '$mul', '$min', '$max', '$push', '$addToSet', '$pull', '$pullAll', '$pop', '$rename',
  '$setOnInsert', '$currentDate',
]);

export function isOperatorUpdate(update: Update): boolean {
  const keys = Object.keys(update);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

export function assertOperatorUpdate(update: Update): void {
  if (!isPlainObject(update)) throw invalidUpdateError('An update must be an object of update operators.');
  const keys = Object.keys(update);
  if (keys.length === 0 || !keys.every((k) => k.startsWith('$'))) {
    throw invalidUpdateError('An update must consist of update operators such as $set (use replaceOne to replace a document).');
  }
  for (const k of keys) {
    if (!UPDATE_OPERATORS.has(k)) throw unsupportedError(`The update operator ${k} is not supported.`);
    if (!isPlainObject(update[k])) throw invalidUpdateError(`The argument of ${k} must be an object.`);
  }
  const paths: string[] = [];
  for (const k of keys) {
    for (const [path, arg] of Object.entries(update[k] as Record<string, unknown>)) {
      if (arg === undefined) continue;
      checkPath(path);
      paths.push(path);
      if (k === '$rename') {
        if (typeof arg !== 'string') throw invalidUpdateError('$rename needs a string target.');
        checkPath(arg);
        if (arg === path) throw invalidUpdateError(`$rename source and target are the same: '${path}'.`);
        paths.push(arg);
      }
    }
  }
  for (let i = 0; i < paths.length; i++) {
    for (let j = 0; j < paths.length; j++) {
      if (i === j) continue;
      const p = paths[i]!;
      const q = paths[j]!;
      if (p === q || q.startsWith(`${p}.`)) throw invalidUpdateError(`Updating the path '${q}' would create a conflict at '${p}'.`);
    }
  }
}

function checkPath(path: string): void {
  const parts = splitPath(path);
  if (path.length === 0 || parts.some((p) => p.length === 0)) throw invalidUpdateError(`'${path}' is not a valid field path.`);
  if (parts.some((p) => p.startsWith('$'))) throw unsupportedError(`Positional update paths like '${path}' are not supported.`);
}

