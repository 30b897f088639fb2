/**
 * Synchronous mutations run inside one lmdb write transaction. Each document change is validated
 * completely (update rules, unique keys) before anything is written, and the document and all its
 * index entries are written together, so a failure never leaves a half-applied document.
 */
import { newId } from '../../ids.ts';
import type { Doc, Filter, IndexSpec, Sort, Update } from '../port.ts';
import {
  assertDocumentId,
  defaultIndexName,
  duplicateKeyError,
  immutableIdError,
  indexConflictError,
  invalidDocumentError,
  invalidUpdateError,
} from '../store-errors.ts';
import { valuesEqual } from '../bson-order.ts';
import { collectValues, splitPath } from '../document-paths.ts';
import type { CollectionMeta, EmbeddedEngine } from './engine.ts';
import { keysForDocument, sameIndexedValues, type DocKeys, type IndexDef } from './index-keys.ts';
import { findDocs, matchingDocs, type CollectionView } from './query-exec.ts';
import { applyUpdate, normalizeDocument, normalizeValue, seedFromFilter } from './update-operators.ts';

export type WriteView = CollectionView & { meta: CollectionMeta };

const latin1 = (b: Buffer): string => b.toString('latin1');

/** MongoDB stores _id as the first field. */
function idFirst(doc: Doc): Doc {
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

/** Whether two documents hold equal values on every field of an index (for truncated-key collisions). */
function sameIndexValues(index: IndexDef, a: Doc, b: Doc): boolean {
  return index.keys.every(([path]) => {
    const xs = collectValues(a, splitPath(path));
    const ys = collectValues(b, splitPath(path));
    if (xs.length === 0 && ys.length === 0) return true;
    return xs.some((x) => ys.some((y) => valuesEqual(x, y)));
  });
}

function uniqueViolation(view: WriteView, index: IndexDef, key: Buffer, doc: Doc): boolean {
  if (!view.index.doesExist(key)) return false;
  for (const otherId of view.index.getValues(key)) {
    if (otherId === doc._id) continue;
    if (!index.inexact) return true;
    const other = view.docs.get(otherId);
    if (other && sameIndexValues(index, doc, other)) return true;
  }
  return false;
}

function keyDescription(index: IndexDef, doc: Doc): Record<string, unknown> {
  return Object.fromEntries(index.keys.map(([path]) => [path, collectValues(doc, splitPath(path))[0] ?? null]));
}

/**
 * Replaces `before` by `after` (either may be null for insert/delete) with all index entries. Throws
 * before writing anything when a unique index would be violated.
 */
function writeDocument(engine: EmbeddedEngine, view: WriteView, before: Doc | null, after: Doc | null): void {
  const changes: { index: IndexDef; add: Buffer[]; remove: Buffer[]; keys: DocKeys | null; wasInexact: boolean }[] = [];
  for (const index of view.indexes) {
    // Unchanged indexed values: the same keys, already there (and already checked if unique).
    if (before && after && sameIndexedValues(index, before, after)) continue;
    const wasInexact = index.inexact;
    const oldKeys = before ? keysForDocument(index, before).keys : [];
    const next = after ? keysForDocument(index, after) : null;
    const newKeys = next?.keys ?? [];
    let add = newKeys;
    let remove = oldKeys;
    if (oldKeys.length > 0 && newKeys.length > 0) {
      // Only touch the entries that change (most updates leave most index keys alone).
      const oldSet = new Set(oldKeys.map(latin1));
      const newSet = new Set(newKeys.map(latin1));
      add = newKeys.filter((k) => !oldSet.has(latin1(k)));
      remove = oldKeys.filter((k) => !newSet.has(latin1(k)));
    }
    if (index.unique && after) {
      // A truncated key must be compared by value from the start (see uniqueViolation).
      if (next?.inexact) index.inexact = true;
      for (const k of add) if (uniqueViolation(view, index, k, after)) throw duplicateKeyError(view.name, index.name, keyDescription(index, after));
    }
    changes.push({ index, add, remove, keys: next, wasInexact });
  }
  if (after) void view.docs.put(after._id, after);
  else if (before) void view.docs.remove(before._id);
  let metaChanged = false;
  for (const { index, add, remove, keys, wasInexact } of changes) {
    const id = (after ?? before)!._id;
    for (const k of remove) void view.index.remove(k, id);
    for (const k of add) void view.index.put(k, id);
    if (keys?.multikey && !index.multikey) {
      index.multikey = true;
      metaChanged = true;
    }
    if (keys?.inexact && !wasInexact) {
      index.inexact = true;
      metaChanged = true;
    }
  }
  if (metaChanged) engine.writeMeta(view.name, view.meta);
}

function insertNew(engine: EmbeddedEngine, view: WriteView, doc: Doc): void {
  if (view.docs.doesExist(doc._id)) throw duplicateKeyError(view.name, '_id_', { _id: doc._id });
  writeDocument(engine, view, null, doc);
}

/** Ordered insert: stops at the first failure, keeping the documents before it. */
export function insertDocs(engine: EmbeddedEngine, view: WriteView, docs: readonly Doc[]): { inserted: number; error: unknown } {
  let inserted = 0;
  for (const raw of docs) {
    try {
      assertDocumentId(raw);
      insertNew(engine, view, normalizeDocument(raw));
      inserted++;
    } catch (error) {
      return { inserted, error };
    }
  }
  return { inserted, error: null };
}

export interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId: string | null;
  before: Doc | null;
  after: Doc | null;
}

function upsertId(seed: Record<string, unknown>): string {
  const id = seed._id ?? newId();
  if (typeof id !== 'string' || id.length === 0) throw invalidDocumentError('An upsert needs a string _id.');
  return id;
}

export function updateDocs(
  engine: EmbeddedEngine,
  view: WriteView,
  filter: Filter,
  update: Update,
  options: { multi: boolean; upsert: boolean; sort?: Sort },
): UpdateOutcome {
  const targets = options.multi ? [...matchingDocs(view, filter)] : findDocs(view, filter, { sort: options.sort, limit: 1 });
  const out: UpdateOutcome = { matched: 0, modified: 0, upsertedId: null, before: null, after: null };
  const now = new Date();
  for (const doc of targets) {
    const next = applyUpdate(doc, update, false, now);
    if (next._id !== doc._id) throw immutableIdError(view.name);
    out.matched++;
    if (!out.before) {
      out.before = doc;
      out.after = next;
    }
    if (valuesEqual(next, doc)) continue;
    writeDocument(engine, view, doc, next);
    out.modified++;
  }
  if (out.matched === 0 && options.upsert) {
    const seed = seedFromFilter(filter);
    const base = { ...seed, _id: upsertId(seed) } as Doc;
    const created = applyUpdate(base, update, true, now);
    if (created._id !== base._id) throw immutableIdError(view.name);
    const doc = idFirst(created);
    insertNew(engine, view, doc);
    out.upsertedId = doc._id;
    out.after = doc;
  }
  return out;
}

export function replaceDoc(engine: EmbeddedEngine, view: WriteView, filter: Filter, replacement: Doc, upsert: boolean): UpdateOutcome {
  if (typeof replacement !== 'object' || replacement === null || Object.keys(replacement).some((k) => k.startsWith('$'))) {
    throw invalidUpdateError('A replacement document may not contain update operators.');
  }
  const clean = normalizeValue(replacement) as Record<string, unknown>;
  const out: UpdateOutcome = { matched: 0, modified: 0, upsertedId: null, before: null, after: null };
  const [doc] = findDocs(view, filter, { limit: 1 });
  if (doc) {
    if (clean._id !== undefined && clean._id !== doc._id) throw immutableIdError(view.name);
    const ordered = idFirst({ ...clean, _id: doc._id });
    out.matched = 1;
    out.before = doc;
    out.after = ordered;
    if (!valuesEqual(ordered, doc)) {
      writeDocument(engine, view, doc, ordered);
      out.modified = 1;
    }
    return out;
  }
  if (!upsert) return out;
  const id = clean._id ?? upsertId(seedFromFilter(filter));
  const created = { ...clean, _id: id };
  assertDocumentId(created);
  const ordered = idFirst(created);
  insertNew(engine, view, ordered);
  out.upsertedId = ordered._id;
  out.after = ordered;
  return out;
}

export function deleteDocs(engine: EmbeddedEngine, view: WriteView, filter: Filter, options: { multi: boolean; sort?: Sort }): Doc[] {
  const targets = options.multi ? [...matchingDocs(view, filter)] : findDocs(view, filter, { sort: options.sort, limit: 1 });
  for (const doc of targets) writeDocument(engine, view, doc, null);
  return targets;
}

function sameSpec(def: IndexDef, keys: [string, 1 | -1][], unique: boolean, sparse: boolean): boolean {
  return (
    def.unique === unique &&
    def.sparse === sparse &&
    def.keys.length === keys.length &&
    def.keys.every(([p, d], i) => keys[i]![0] === p && keys[i]![1] === d)
  );
}

/** Builds new indexes from the existing documents; a unique violation aborts before anything is written. */
export function createIndexes(engine: EmbeddedEngine, view: WriteView, specs: readonly IndexSpec[]): void {
  for (const spec of specs) {
    const keys = Object.entries(spec.keys ?? {}).map(([p, d]) => [p, d] as [string, 1 | -1]);
    if (keys.length === 0 || keys.some(([p, d]) => (d !== 1 && d !== -1) || p.length === 0 || p.split('.').some((x) => x === '' || x.startsWith('$')))) {
      throw invalidDocumentError(`Invalid index key pattern ${JSON.stringify(spec.keys)}.`);
    }
    if (keys.length === 1 && keys[0]![0] === '_id') continue; // the documents database is the _id index
    const name = spec.name ?? defaultIndexName(spec.keys);
    const unique = spec.unique === true;
    const sparse = spec.sparse === true;
    const sameName = view.meta.indexes.find((d) => d.name === name);
    if (sameName) {
      if (sameSpec(sameName, keys, unique, sparse)) continue;
      throw indexConflictError(view.name, `An index named ${name} with different options already exists on ${view.name}.`);
    }
    const sameKeys = view.meta.indexes.find((d) => d.keys.length === keys.length && d.keys.every(([p, dir], i) => keys[i]![0] === p && keys[i]![1] === dir));
    if (sameKeys) throw indexConflictError(view.name, `Index ${sameKeys.name} on ${view.name} already has the keys of ${name}.`);
    const used = new Set(view.meta.indexes.map((d) => d.no));
    let no = 1;
    while (used.has(no)) no++;
    if (no > 250) throw indexConflictError(view.name, `Too many indexes on ${view.name}.`);
    const def: IndexDef = { name, no, keys, unique, sparse, multikey: false, inexact: false };

    const entries: { key: Buffer; id: string }[] = [];
    const owners = new Map<string, string[]>();
    for (const doc of matchingDocs(view, {})) {
      const dk = keysForDocument(def, doc);
      if (dk.multikey) def.multikey = true;
      if (dk.inexact) def.inexact = true;
      for (const key of dk.keys) {
        entries.push({ key, id: doc._id });
        if (!unique) continue;
        const k = latin1(key);
        const others = owners.get(k);
        if (!others) {
          owners.set(k, [doc._id]);
          continue;
        }
        // Equal keys are a real duplicate unless a key was truncated; then compare the documents.
        const clash = others.some((id) => {
          if (!def.inexact) return true;
          const other = view.docs.get(id);
          return other !== undefined && sameIndexValues(def, other, doc);
        });
        if (clash) throw duplicateKeyError(view.name, name, keyDescription(def, doc));
        others.push(doc._id);
      }
    }
    for (const { key, id } of entries) void view.index.put(key, id);
    view.meta.indexes.push(def);
    engine.writeMeta(view.name, view.meta);
  }
}

export function dropIndex(engine: EmbeddedEngine, view: WriteView, name: string): void {
  const def = view.meta.indexes.find((d) => d.name === name);
  if (!def) return;
  // Every key of an index starts with its number: one range holds all of its entries.
  const keys = [...view.index.getKeys({ start: Buffer.from([def.no]), end: Buffer.from([def.no + 1]) })];
  for (const key of keys) void view.index.remove(key);
  view.meta.indexes = view.meta.indexes.filter((d) => d !== def);
  engine.writeMeta(view.name, view.meta);
}

export function dropAll(engine: EmbeddedEngine, view: WriteView): void {
  // Removing entries (instead of dropping the databases) keeps handles other processes hold valid and
  // keeps the shared msgpack structures they may still encode with.
  const ids = [...view.docs.getKeys({ start: '' })];
  for (const id of ids) void view.docs.remove(id);
  const keys = [...view.index.getKeys({})];
  for (const key of keys) void view.index.remove(key);
  view.meta.indexes = [];
  engine.writeMeta(view.name, view.meta);
}
