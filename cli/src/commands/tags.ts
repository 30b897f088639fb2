import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { EDITABLE_FIELDS, readTags, safeWriteTags, undoTask, undoWrite, type TagEdit, type TagField, type TagValues, type AudioInfo, type ArtworkInfo } from '@tagsonic/core/tags';
import { isTagsonicError } from '@tagsonic/core/errors';
import { openRuntime, type Runtime } from '../runtime.ts';
import { CliError } from '../cli-error.ts';

const USAGE = `usage:
  tagsonic tags show FILE… [--json]
  tagsonic tags set FILE… [--title T] [--artist A] [--album A] … [--cover IMG | --remove-cover] [--clear FIELD]…
  tagsonic tags undo WRITE_ID|TASK_ID [--force]
fields: ${EDITABLE_FIELDS.join(', ')}`;

/** `tagsonic tags …`: the same engine, safe write and journal as the product, from a shell. */
export async function tags(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'show') return show(rest);
  if (sub === 'set') return set(rest);
  if (sub === 'undo') return undo(rest);
  throw new CliError(USAGE);
}

async function show(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' } } });
  if (!positionals.length) throw new CliError(USAGE);
  const all = [];
  let failed = 0;
  for (const file of positionals) {
    try {
      const { tags: t, audio } = await readTags(path.resolve(file));
      all.push({ file, tags: t, audio });
      if (!values.json) printTags(file, t.fields, audio, t.artwork);
    } catch (e) {
      failed++;
      process.stderr.write(`${file}: ${isTagsonicError(e) ? e.message : String(e)}\n`);
    }
  }
  if (values.json) process.stdout.write(JSON.stringify(all, null, 2) + '\n');
  if (failed) process.exitCode = 1;
}

function printTags(file: string, fields: Record<string, string | null>, audio: AudioInfo, artwork: ArtworkInfo | null): void {
  const lines = [file];
  for (const f of EDITABLE_FIELDS) if (fields[f] !== null && fields[f] !== undefined) lines.push(`  ${f.padEnd(22)} ${oneLine(fields[f]!)}`);
  const a = artwork;
  lines.push(`  ${'artwork'.padEnd(22)} ${a ? `${a.mime} ${a.width}x${a.height} ${a.size} bytes` : '-'}`);
  lines.push(
    `  ${'audio'.padEnd(22)} ${audio.format} ${audio.codec} ${Number(audio.duration).toFixed(2)} s ${audio.bitRate} kbps ${audio.sampleRate} Hz ${audio.channels} ch`,
  );
  process.stdout.write(lines.join('\n') + '\n');
}

const oneLine = (s: string) => (s.length > 80 ? s.slice(0, 77).replace(/\s+/g, ' ') + '…' : s.replace(/\s+/g, ' '));

async function set(args: string[]): Promise<void> {
  const fieldOptions = Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, { type: 'string' as const }]));
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...fieldOptions,
      cover: { type: 'string' },
      'remove-cover': { type: 'boolean' },
      clear: { type: 'string', multiple: true },
    },
  });
  if (!positionals.length) throw new CliError(USAGE);
  const fields: TagValues = {};
  for (const f of EDITABLE_FIELDS) {
    const v = (values as Record<string, unknown>)[f];
    if (typeof v === 'string') fields[f] = v;
  }
  for (const f of values.clear ?? []) {
    if (!(EDITABLE_FIELDS as readonly string[]).includes(f)) throw new CliError(`unknown field "${f}"\n${USAGE}`);
    fields[f as TagField] = null;
  }
  const edit: TagEdit = { fields };
  if (values.cover && values['remove-cover']) throw new CliError('--cover and --remove-cover exclude each other');
  if (values.cover) edit.artwork = { mime: imageMime(values.cover), data: await readFile(values.cover) };
  if (values['remove-cover']) edit.artwork = null;
  if (!Object.keys(fields).length && edit.artwork === undefined) throw new CliError(`nothing to set\n${USAGE}`);

  await withRuntime(async (rt) => {
    let failed = 0;
    for (const file of positionals) {
      try {
        const r = await safeWriteTags(path.resolve(file), edit, { journal: rt.journal, actor: cliActor(), reason: 'cli' });
        process.stdout.write(`${file}: ${r.changed.length ? `changed ${r.changed.join(', ')}` : 'unchanged'} (write ${r.writeId})\n`);
      } catch (e) {
        failed++;
        process.stderr.write(`${file}: ${isTagsonicError(e) ? e.message : String(e)}\n`);
      }
    }
    if (failed) process.exitCode = 1;
  });
}

async function undo(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { force: { type: 'boolean' } } });
  if (positionals.length !== 1) throw new CliError(USAGE);
  const id = positionals[0];
  await withRuntime(async (rt) => {
    const ctx = { journal: rt.journal, actor: cliActor(), reason: 'cli undo' };
    const options = { force: values.force ?? false };
    if (await rt.journal.get(id)) {
      const r = await undoWrite(id, ctx, options);
      process.stdout.write(`${r.path}: restored (write ${r.writeId})\n`);
      return;
    }
    const report = await undoTask(id, ctx, options);
    if (!report.items.length) throw new CliError(`no write or task with id ${id}`);
    for (const item of report.items) {
      const what = item.status === 'undone' ? 'restored' : item.status === 'skipped' ? `skipped (${item.note})` : `not restored: ${item.error?.message}`;
      process.stdout.write(`${item.path}: ${what}\n`);
    }
    process.stdout.write(`${report.undone} restored, ${report.skipped} skipped, ${report.failed} failed\n`);
    if (report.failed) process.exitCode = 1;
  });
}

async function withRuntime(fn: (rt: Runtime) => Promise<void>): Promise<void> {
  const rt = await openRuntime();
  try {
    await fn(rt);
  } finally {
    await rt.close();
  }
}

const cliActor = () => `cli:${process.env.USER ?? 'unknown'}`;

function imageMime(file: string): string {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.jpg' || ext === '.jpeg') return 'image/jpeg';
  if (ext === '.png') return 'image/png';
  if (ext === '.webp') return 'image/webp';
  if (ext === '.gif') return 'image/gif';
  throw new CliError(`--cover takes a .jpg, .png, .webp or .gif image, not "${file}"`);
}
