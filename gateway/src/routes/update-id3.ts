import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { newId } from '@tagsonic/core';
import { EDITABLE_FIELDS, downloadCover, moveTrack, readArtwork, readTags, sniffImage, type ReadResult, type TagValues } from '@tagsonic/core/tags';
import { SUBJECTS, type TaskProgress } from '@tagsonic/core/tasks';
import { TagsonicError, invalid, isTagsonicError } from '@tagsonic/core/errors';
import { readFolderCover, readLyricsFile, renameTarget, toJpeg, writeFolderCover, writeLyricsFile } from '@tagsonic/core/files';
import { CLEAR_PLACEHOLDER, hasVariables, renderTemplate, templateVariables } from '@tagsonic/core/templates';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { UpdateId3Request, UpdateId3Response } from '../schemas/tags.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { readUpload, UPLOAD_ID } from './media.ts';
import type { Ctx } from '../deps.ts';

/** How long a save waits for the workers before answering with the task still running. */
const WAIT_MS = 30_000;
const UPLOAD_URL = new RegExp(`^/apimt/uploaded_image/(${UPLOAD_ID.slice(1, -1)})$`);
const DATA_URL = /^data:image\/(?:jpeg|jpg|png|webp|gif|bmp);base64,([A-Za-z0-9+/=\s]+)$/;
/** A source's cover (a candidate's album_img), downloaded by the server. */
const REMOTE_URL = /^https?:\/\//i;
/** The environment variables of the administrator's source base URLs (TAGSONIC_SOURCE_URL_<ID>). */
const SOURCE_URL_VARIABLE = 'TAGSONIC_SOURCE_URL_';

type Info = Record<string, unknown> & {
  file_full_path: string;
  is_save_lyrics_file?: boolean;
  is_import_lyrics_file?: boolean;
  is_save_album_cover?: boolean;
  is_import_album_cover?: boolean;
  filename?: string | null;
  album_img?: string | null;
};

/** One file of the save, checked and prepared before anything on disk changes. */
interface Plan {
  info: Info;
  path: string;
  fields: TagValues;
  artwork?: { mime: string; base64: string } | null;
  renameTo: string | null;
}

/**
 * POST /apimt/update_id3/: saves the tags of one or more files. Everything is checked first (paths,
 * values, templates, covers, new names) so a bad entry changes nothing. Then renames are done, one
 * task is recorded with one command per file, and the workers write through the safe-write protocol
 * and the journal (every tag write is undoable). The answer waits for the task so the editor can say
 * 修改成功！; the .lrc and cover.jpg beside the files are written after their tags.
 */
export async function updateId3Routes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/apimt/update_id3/',
    {
      onRequest: requireUser,
      schema: { body: UpdateId3Request, response: { 200: UpdateId3Response, '4xx': ErrorEnvelope } },
    },
    async (request) => {
      const plans: Plan[] = [];
      const targets = new Set<string>();
      const covers = remoteCovers(ctx);
      for (const info of request.body.music_id3_info as Info[]) {
        const plan = await prepare(ctx, info, covers);
        if (plan.renameTo) {
          if (targets.has(plan.renameTo)) {
            throw invalid('TAGSONIC_ERR_FILES_NAME_TAKEN', `Two files would be renamed to ${path.basename(plan.renameTo)}.`);
          }
          targets.add(plan.renameTo);
        }
        plans.push(plan);
      }
      const renamedFrom = new Map<Plan, string>();
      // Renames are journaled in the task (undoing it gives the files their names back).
      const taskId = newId();
      for (const plan of plans) {
        if (!plan.renameTo) continue;
        await moveTrack(plan.path, plan.renameTo, { journal: ctx.journal, actor: request.user.username, taskId, reason: 'rename' });
        await ctx.fileStates.move(plan.path, plan.renameTo);
        renamedFrom.set(plan, plan.path);
        plan.path = plan.renameTo;
      }

      const done = waitForTask(ctx, WAIT_MS);
      const task = await ctx.tasks.create({
        id: taskId,
        kind: 'tags.write',
        action: '手动修改',
        actor: request.user.username,
        subject: SUBJECTS.tagsWrite,
        items: plans.map((p) => ({
          path: p.path,
          payload: { path: p.path, actor: request.user.username, fields: p.fields, ...(p.artwork !== undefined ? { artwork: p.artwork } : {}) },
        })),
      });
      const final = await done.wait(task._id);
      const report = await ctx.tasks.listItems(task._id);
      const items = [];
      for (let i = 0; i < report.length; i++) {
        const it = report[i];
        const plan = plans[i];
        const side = it.status === 'success' ? await sideFiles(plan).catch((e: unknown) => ({ error: errorText(e), errorCode: isTagsonicError(e) ? e.code : SIDE_FILE_FAILED })) : {};
        items.push({
          path: it.path,
          status: 'error' in side ? 'fail' : it.status,
          error: it.error ?? ('error' in side ? side.error : null),
          error_code: it.errorCode ?? ('error' in side ? side.errorCode : null),
          write_id: typeof it.result?.writeId === 'string' ? it.result.writeId : null,
          renamed_from: renamedFrom.get(plan) ?? null,
          lyrics_file: 'lyricsFile' in side ? (side.lyricsFile ?? null) : null,
          cover_file: 'coverFile' in side ? (side.coverFile ?? null) : null,
        });
      }
      const data = { task_id: task._id, status: final?.status ?? 'running', items };
      const failed = items.filter((it) => it.status === 'fail');
      if (failed.length === items.length && failed.length > 0) {
        // Every file failed for the same reason: that reason's code, so the dashboard names it in its language.
        const code = failed.every((it) => it.error_code && it.error_code === failed[0].error_code) ? failed[0].error_code! : 'TAGSONIC_ERR_TAGS_WRITE_FAILED';
        throw new TagsonicError('invalid', code, failed[0].error ?? 'The tags could not be written.', { details: data });
      }
      const summary = !final ? '任务在后台努力运行中' : failed.length > 0 ? `${failed.length} 个文件修改失败：${failed[0].error ?? ''}` : '修改成功！';
      return ok(data, summary);
    },
  );
}

async function prepare(ctx: Ctx, info: Info, covers: RemoteCovers): Promise<Plan> {
  const filePath = (await ctx.roots.resolve(info.file_full_path)).path;
  let current: ReadResult | null = null;
  const tags = async () => (current ??= await readTags(filePath));
  const vars = async () => templateVariables(filePath, (await tags()).tags.fields);

  const fields: TagValues = {};
  for (const field of EDITABLE_FIELDS) {
    const v = info[field];
    if (v === undefined) continue;
    if (v === null || v === CLEAR_PLACEHOLDER) fields[field] = null;
    else if (typeof v === 'number') fields[field] = String(v);
    else if (typeof v === 'string') fields[field] = hasVariables(v) ? renderTemplate(v, await vars()) : v;
  }
  if (info.is_import_lyrics_file) {
    const lrc = await readLyricsFile(filePath);
    if (lrc === null) throw invalid('TAGSONIC_ERR_FILES_NO_LRC', `There is no ${path.basename(filePath, path.extname(filePath))}.lrc beside ${path.basename(filePath)} to import.`);
    fields.lyrics = lrc;
  }

  let artwork: Plan['artwork'];
  const img = info.album_img;
  if (img === CLEAR_PLACEHOLDER) artwork = null;
  else if (typeof img === 'string' && img !== '' && !img.startsWith('/apimt/file_cover/')) artwork = await coverFrom(ctx, img, covers);
  else if (info.is_import_album_cover) {
    const cover = await readFolderCover(path.dirname(filePath));
    if (!cover) throw invalid('TAGSONIC_ERR_FILES_NO_FOLDER_COVER', `The folder of ${path.basename(filePath)} has no cover.jpg to import.`);
    artwork = { mime: cover.mime, base64: Buffer.from(cover.data).toString('base64') };
  }

  let renameTo: string | null = null;
  if (typeof info.filename === 'string' && info.filename.trim() !== '' && info.filename !== CLEAR_PLACEHOLDER) {
    const name = hasVariables(info.filename) ? renderTemplate(info.filename, await vars()) : info.filename;
    if (name.includes('/')) throw invalid('TAGSONIC_ERR_FILES_BAD_NAME', 'A file name cannot contain "/"; files are renamed inside their folder.');
    renameTo = await renameTarget(filePath, name);
  }
  return { info, path: filePath, fields, artwork, renameTo };
}

/** A cover the client names (an upload, a data: URL or a source's http(s) URL) → its bytes as base64; shared with the entity edits. */
export async function coverFrom(ctx: Ctx, img: string, covers: RemoteCovers): Promise<{ mime: string; base64: string }> {
  const upload = UPLOAD_URL.exec(img);
  let data: Uint8Array;
  if (upload) data = await readUpload(ctx, upload[1]);
  else if (REMOTE_URL.test(img)) data = await covers.get(img);
  else {
    const m = DATA_URL.exec(img);
    if (!m) {
      throw invalid(
        'TAGSONIC_ERR_TAGS_BAD_COVER',
        "album_img must be a picture uploaded with /apimt/upload_image/, a data: URL of a JPEG, PNG or WebP picture, or a source's http(s) cover URL.",
      );
    }
    data = new Uint8Array(Buffer.from(m[1].replace(/\s+/g, ''), 'base64'));
  }
  const header = sniffImage(data);
  if (!header) throw invalid('TAGSONIC_ERR_TAGS_BAD_COVER', 'The new cover is not a picture.');
  return { mime: header.mime, base64: Buffer.from(data).toString('base64') };
}

export type RemoteCovers = ReturnType<typeof remoteCovers>;

/**
 * Source covers for one save, each URL downloaded once however many files it goes into (the row copied into
 * several files of an album). The administrator's source base URLs are read once, on the first download.
 */
export function remoteCovers(ctx: Ctx) {
  const downloads = new Map<string, Promise<Uint8Array>>();
  let trusted: Promise<string[]> | null = null;
  return {
    get(url: string): Promise<Uint8Array> {
      let found = downloads.get(url);
      if (!found) {
        trusted ??= sourceBaseUrls(ctx);
        found = trusted.then(async (trustedOrigins) => (await downloadCover(url, { trustedOrigins })).data);
        downloads.set(url, found);
      }
      return found;
    },
  };
}

/**
 * The administrator's source base URLs — `TAGSONIC_SOURCE_URL_<ID>` and each tag source's base URL setting:
 * a self-hosted mirror on loopback or the LAN serves its covers too, so their origins are downloaded from
 * though other private addresses are refused.
 */
async function sourceBaseUrls(ctx: Ctx): Promise<string[]> {
  const urls = Object.entries(process.env)
    .filter(([name, value]) => name.startsWith(SOURCE_URL_VARIABLE) && value?.trim())
    .map(([, value]) => value!.trim());
  const { items } = await ctx.plugins.list({ kind: 'tag-source', page: 1, pageSize: 1000 });
  for (const plugin of items) if (plugin.settings.baseUrl) urls.push(plugin.settings.baseUrl);
  return urls;
}

/** Writes the files beside a track after its tags: its .lrc and the folder's cover.jpg, from the saved values. */
async function sideFiles(plan: Plan): Promise<{ lyricsFile?: string | null; coverFile?: string | null }> {
  const out: { lyricsFile?: string | null; coverFile?: string | null } = {};
  if (plan.info.is_save_lyrics_file) {
    const lyrics = (await readTags(plan.path)).tags.fields.lyrics;
    out.lyricsFile = lyrics ? await writeLyricsFile(plan.path, lyrics) : null;
  }
  if (plan.info.is_save_album_cover) {
    const art = await readArtwork(plan.path);
    out.coverFile = art ? await writeFolderCover(path.dirname(plan.path), await toJpeg(art.data)) : null;
  }
  return out;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A file system error writing the .lrc or cover.jpg after the tags were written: its own code, so the
 * dashboard does not say the tags failed (TAGS_WRITE_FAILED) when only the file beside them did.
 */
const SIDE_FILE_FAILED = 'TAGSONIC_ERR_FILES_SIDE_FILE_FAILED';

/**
 * Subscribes before the task exists so a fast worker's completion event is never missed; resolves
 * with the completion, or null after `ms`. It also re-reads the task every second, so a lost event
 * (a NATS reconnect) only delays the answer.
 */
export function waitForTask(ctx: Ctx, ms: number) {
  const seen = new Map<string, TaskProgress>();
  let wake: (() => void) | null = null;
  const sub = ctx.bus.subscribe<TaskProgress>(SUBJECTS.taskCompleted, (_s, p) => {
    seen.set(p.taskId, p);
    wake?.();
  });
  return {
    async wait(taskId: string): Promise<TaskProgress | null> {
      const deadline = Date.now() + ms;
      try {
        for (;;) {
          const event = seen.get(taskId);
          if (event) return event;
          const task = await ctx.tasks.get(taskId);
          if (task.status !== 'running') {
            return { taskId, status: task.status, total: task.total, done: task.total, counts: task.counts };
          }
          const left = deadline - Date.now();
          if (left <= 0) return null;
          await new Promise<void>((res) => {
            wake = res;
            setTimeout(res, Math.min(left, 1000)).unref();
          });
        }
      } finally {
        wake = null;
        await sub.close();
      }
    },
  };
}
