/**
 * Reads an uploaded plugin package without running any of it: a `.zip` (manifest.json at the root or inside one
 * top-level folder, plus the bundled entry script) or a single `.js` whose first comment is
 * `/* @tagsonic-manifest {…} *\/`. Uploads come from administrators but are still untrusted files, so every
 * limit is checked before the bytes are spent: entry names that climb out (`../`) or start at a root, symlink
 * entries, too many entries, declared sizes over the budget, and inflated bytes past the budget (the stream is
 * cut there, so a bomb costs at most the budget). Only the manifest and the entry are inflated at all.
 */
import { TextDecoder } from 'node:util';
import path from 'node:path';
import vm from 'node:vm';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { validateManifest } from '@tagsonic/sdk';
import { invalid, TagsonicError } from '../errors/errors.ts';
import type { PluginPackage } from './types.ts';

export const PACKAGE_LIMITS = {
  /** The uploaded file. */
  uploadBytes: 2 * 1024 * 1024,
  /** All entries of a zip, as declared and as inflated. */
  unpackedBytes: 8 * 1024 * 1024,
  entries: 200,
  /** The bundled script. */
  codeBytes: 4 * 1024 * 1024,
} as const;

export const PACKAGE_UNSUPPORTED_TYPE = 'TAGSONIC_ERR_PLUGIN_PACKAGE_UNSUPPORTED_TYPE';
export const PACKAGE_TOO_LARGE = 'TAGSONIC_ERR_PLUGIN_PACKAGE_TOO_LARGE';
export const PACKAGE_UNPACKED_TOO_LARGE = 'TAGSONIC_ERR_PLUGIN_PACKAGE_UNPACKED_TOO_LARGE';
export const PACKAGE_TOO_MANY_ENTRIES = 'TAGSONIC_ERR_PLUGIN_PACKAGE_TOO_MANY_ENTRIES';
export const PACKAGE_UNSAFE_PATH = 'TAGSONIC_ERR_PLUGIN_PACKAGE_UNSAFE_PATH';
export const PACKAGE_SYMLINK = 'TAGSONIC_ERR_PLUGIN_PACKAGE_SYMLINK';
export const PACKAGE_CORRUPT = 'TAGSONIC_ERR_PLUGIN_PACKAGE_CORRUPT';
export const PACKAGE_NO_MANIFEST = 'TAGSONIC_ERR_PLUGIN_PACKAGE_NO_MANIFEST';
export const PACKAGE_NO_ENTRY = 'TAGSONIC_ERR_PLUGIN_PACKAGE_NO_ENTRY';
/** Shared with the registry and the runtime: the manifest breaks the contract. */
export const PACKAGE_MANIFEST_INVALID = 'TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID';
/** Shared with the runtime: the script does not compile. */
export const PACKAGE_COMPILE = 'TAGSONIC_ERR_PLUGIN_COMPILE';

const MiB = (bytes: number): string => `${bytes / (1024 * 1024)} MiB`;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const JS_MANIFEST = /^\uFEFF?\s*\/\*\s*@tagsonic-manifest\b([\s\S]*?)\*\//;
/** Unix mode bits live in the high 16 bits of the external attributes; 0o120000 is a symlink. */
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * The manifest (validated) and code of an uploaded package, or a `TagsonicError` (`invalid`) naming what is
 * wrong. `fileName` decides the format (`.zip` or `.js`); nothing in the package is executed.
 *
 * @example
 * const pkg = await readPluginPackage(await readFile('hello.zip'), 'hello.zip');
 * await registry.install(pkg, 'upload');
 */
export async function readPluginPackage(bytes: Buffer, fileName: string): Promise<PluginPackage> {
  const ext = path.extname(fileName).toLowerCase();
  if (ext !== '.zip' && ext !== '.js') {
    throw invalid(PACKAGE_UNSUPPORTED_TYPE, `A plugin package is a .zip or a single .js file; "${path.basename(fileName).slice(0, 100)}" is neither.`);
  }
  if (bytes.length > PACKAGE_LIMITS.uploadBytes) {
    throw invalid(PACKAGE_TOO_LARGE, `The package is ${(bytes.length / (1024 * 1024)).toFixed(1)} MiB; at most ${MiB(PACKAGE_LIMITS.uploadBytes)} can be uploaded.`);
  }
  return ext === '.js' ? readScript(bytes) : readZip(bytes);
}

function readScript(bytes: Buffer): PluginPackage {
  const code = decode(bytes, 'The script');
  const match = JS_MANIFEST.exec(code);
  if (!match) {
    throw invalid(PACKAGE_NO_MANIFEST, 'A single-file plugin starts with its manifest as a comment: /* @tagsonic-manifest { …manifest.json… } */ (the CLI\'s pack --js writes it).');
  }
  return finish(parseManifest(match[1]!, 'the @tagsonic-manifest comment'), code);
}

async function readZip(bytes: Buffer): Promise<PluginPackage> {
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false });
  } catch (error) {
    throw corrupt(error);
  }
  try {
    if (zip.entryCount > PACKAGE_LIMITS.entries) {
      throw invalid(PACKAGE_TOO_MANY_ENTRIES, `The zip holds ${zip.entryCount} entries; a plugin package may hold at most ${PACKAGE_LIMITS.entries}.`);
    }
    const entries = await listEntries(zip);
    const manifestEntry = findManifest(entries);
    const prefix = manifestEntry.name.slice(0, -'manifest.json'.length);
    const manifest = parseManifest(decode(await inflate(zip, manifestEntry), 'manifest.json'), 'manifest.json');
    const entryName = prefix + path.posix.normalize(manifest.entry).replace(/^\.\//, '');
    const entry = entries.find((e) => e.name === entryName);
    if (!entry) throw invalid(PACKAGE_NO_ENTRY, `The manifest's entry "${manifest.entry}" is not in the zip (looked for "${entryName}").`);
    if (entry.entry.uncompressedSize > PACKAGE_LIMITS.codeBytes) throw codeTooLarge(entry.entry.uncompressedSize);
    return finish(manifest, decode(await inflate(zip, entry), `"${entryName}"`));
  } finally {
    zip.close();
  }
}

interface NamedEntry {
  name: string;
  entry: Entry;
}

/** Every entry's checked name; refuses the whole package on the first unsafe entry, even one that would be ignored. */
async function listEntries(zip: ZipFile): Promise<NamedEntry[]> {
  const entries: NamedEntry[] = [];
  let declared = 0;
  const seen = new Set<string>();
  for await (const entry of eachEntry(zip)) {
    const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
    checkName(name);
    if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
      throw invalid(PACKAGE_SYMLINK, `The zip entry "${name.slice(0, 200)}" is a symbolic link; plugin packages hold regular files only.`);
    }
    if (seen.has(name)) throw invalid(PACKAGE_CORRUPT, `The zip holds "${name.slice(0, 200)}" twice.`);
    seen.add(name);
    declared += entry.uncompressedSize;
    if (declared > PACKAGE_LIMITS.unpackedBytes) throw unpackedTooLarge();
    if (!name.endsWith('/')) entries.push({ name, entry });
  }
  return entries;
}

function checkName(name: string): void {
  const shown = JSON.stringify(name.slice(0, 200));
  if (name.includes('\\') || name.includes('\0')) throw invalid(PACKAGE_UNSAFE_PATH, `The zip entry ${shown} has a backslash or NUL in its name.`);
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) throw invalid(PACKAGE_UNSAFE_PATH, `The zip entry ${shown} has an absolute path.`);
  if (name.split('/').includes('..')) throw invalid(PACKAGE_UNSAFE_PATH, `The zip entry ${shown} climbs out of the package ("..").`);
}

/** `manifest.json` at the root, or inside the one top-level folder everything is in (a zipped folder). */
function findManifest(entries: NamedEntry[]): NamedEntry {
  const atRoot = entries.find((e) => e.name === 'manifest.json');
  if (atRoot) return atRoot;
  const tops = new Set(entries.map((e) => e.name.split('/')[0]));
  const nested = tops.size === 1 ? entries.find((e) => e.name === `${[...tops][0]}/manifest.json`) : undefined;
  if (nested) return nested;
  throw invalid(PACKAGE_NO_MANIFEST, 'The zip has no manifest.json at its root (or inside its one top-level folder).');
}

async function* eachEntry(zip: ZipFile): AsyncGenerator<Entry> {
  for (;;) {
    const entry = await new Promise<Entry | null>((resolve, reject) => {
      const cleanup = (): void => { zip.off('entry', onEntry); zip.off('end', onEnd); zip.off('error', onError); };
      const onEntry = (e: Entry): void => { cleanup(); resolve(e); };
      const onEnd = (): void => { cleanup(); resolve(null); };
      const onError = (error: Error): void => { cleanup(); reject(corrupt(error)); };
      zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
      zip.readEntry();
    });
    if (!entry) return;
    yield entry;
  }
}

/** The entry's bytes, inflating no more than its declared size (and the budget) whatever the data says. */
async function inflate(zip: ZipFile, { name, entry }: NamedEntry): Promise<Buffer> {
  if (entry.isEncrypted()) throw invalid(PACKAGE_CORRUPT, `The zip entry "${name.slice(0, 200)}" is encrypted.`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw invalid(PACKAGE_CORRUPT, `The zip entry "${name.slice(0, 200)}" uses compression method ${entry.compressionMethod}; use deflate or store.`);
  }
  const cap = Math.min(entry.uncompressedSize, PACKAGE_LIMITS.unpackedBytes);
  let stream;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw corrupt(error);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      // yauzl also stops at the declared size; this keeps the cut independent of that check.
      if (total > cap) throw total > PACKAGE_LIMITS.unpackedBytes ? unpackedTooLarge() : invalid(PACKAGE_CORRUPT, `The zip entry "${name.slice(0, 200)}" inflates to more than its declared ${entry.uncompressedSize} bytes.`);
      chunks.push(chunk);
    }
  } catch (error) {
    throw error instanceof TagsonicError ? error : corrupt(error);
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, total);
}

function decode(bytes: Buffer, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalid(PACKAGE_CORRUPT, `${what} is not UTF-8 text.`);
  }
}

function parseManifest(text: string, where: string): ReturnType<typeof validManifest> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(PACKAGE_MANIFEST_INVALID, `The manifest in ${where} is not valid JSON: ${(error as Error).message}`);
  }
  return validManifest(value);
}

function validManifest(value: unknown) {
  const result = validateManifest(value);
  if (!result.ok) {
    const first = result.errors[0]!;
    throw invalid(PACKAGE_MANIFEST_INVALID, `The manifest is invalid: ${first.path || 'manifest'} ${first.message}.`, { errors: result.errors });
  }
  return result.manifest;
}

/** Compiles (never runs) the script the way the sandbox wraps it, so a syntax error is reported at upload. */
function finish(manifest: PluginPackage['manifest'], code: string): PluginPackage {
  const size = Buffer.byteLength(code);
  if (size > PACKAGE_LIMITS.codeBytes) throw codeTooLarge(size);
  try {
    new vm.Script(`(function (module, exports) {${code}\n});`, { filename: `plugin:${manifest.id}` });
  } catch (error) {
    throw invalid(PACKAGE_COMPILE, `The plugin's code does not compile: ${(error as Error).message}`);
  }
  return { manifest, code };
}

const codeTooLarge = (bytes: number) =>
  invalid(PACKAGE_TOO_LARGE, `The plugin's script is ${(bytes / (1024 * 1024)).toFixed(1)} MiB; at most ${MiB(PACKAGE_LIMITS.codeBytes)} is allowed.`);
const unpackedTooLarge = () =>
  invalid(PACKAGE_UNPACKED_TOO_LARGE, `The zip unpacks to more than ${MiB(PACKAGE_LIMITS.unpackedBytes)}; a plugin package may unpack to at most that.`);
const corrupt = (error: unknown) =>
  invalid(PACKAGE_CORRUPT, `The file is not a readable zip: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}.`);
