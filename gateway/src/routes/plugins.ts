import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Manifest } from '@tagsonic/sdk';
import { invalid, notFound } from '@tagsonic/core/errors';
import {
  PACKAGE_LIMITS, PACKAGE_TOO_LARGE, PLUGIN_CHANGED_EVENT, PLUGIN_NOT_INSTALLED, readPluginPackage, sourceUrlVariable,
  type PluginChanged, type PluginRecord,
} from '@tagsonic/core/plugins';
import { ok } from '../envelope.ts';
import { guarded, requireAdmin } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import {
  ConfigurePluginRequest, EnablePluginRequest, PluginDetailResponse, PluginIdRequest, PluginItemResponse, PluginListRequest,
  PluginListResponse, PluginRemoveResponse, PluginVersionRequest, RemovePluginRequest,
} from '../schemas/plugins.ts';
import type { Ctx } from '../deps.ts';

/** What script_detail shows instead of a secret setting; sent back unchanged by configure_script, it keeps the value. */
export const SECRET_MASK = '********';
const UPLOAD_FIELD = 'upload_file';

/**
 * Plugin management for the /mod (tag sources) and /actionMod (batch actions) screens: lists, details with the
 * permissions and their reasons, upload of a package (a new plugin arrives disabled), enable, settings, roll back
 * and remove. Signed-in users may look; only administrators change anything. Every change is announced with
 * {@link PLUGIN_CHANGED_EVENT} so the workers drop the plugin's loaded sandbox.
 */
export async function pluginRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const reader = { onRequest: guarded() };
  const admin = { onRequest: guarded(requireAdmin) };
  const errors = { '4xx': ErrorEnvelope };

  const mustGet = async (id: string): Promise<PluginRecord> => {
    const record = await ctx.plugins.get(id);
    if (!record) throw notFound(PLUGIN_NOT_INSTALLED, `No plugin "${id}" is installed.`, { pluginId: id });
    return record;
  };
  const changed = async (request: FastifyRequest, id: string): Promise<void> => {
    // The change is stored; workers also compare the registry on every call, so a lost event only delays the reload.
    await ctx.bus.publish(PLUGIN_CHANGED_EVENT, { id } satisfies PluginChanged).catch((error: unknown) => {
      request.log.warn({ err: error }, `could not announce the change of plugin ${id}`);
    });
  };

  const lists = [['/apimt/get_resource_script/', 'tag-source'], ['/apimt/get_action_script/', 'batch-action']] as const;
  for (const [url, kind] of lists) {
    r.post(url, { ...reader, schema: { body: PluginListRequest, response: { 200: PluginListResponse, ...errors } } }, async (request) => {
      const page = request.body.page ?? 1;
      const pageSize = request.body.page_size ?? 20;
      const { items, total } = await ctx.plugins.list({ kind, page, pageSize, search: request.body.search });
      return ok({ items: items.map(pluginItem), total, page, page_size: pageSize, total_page: Math.ceil(total / pageSize) });
    });
  }

  r.post('/apimt/script_detail/', { ...reader, schema: { body: PluginIdRequest, response: { 200: PluginDetailResponse, ...errors } } }, async (request) => {
    const record = await mustGet(request.body.id);
    const manifest = activeManifest(record);
    return ok({
      ...pluginItem(record),
      versions: record.versions.map((v) => ({
        version: v.version, origin: v.origin, sha256: v.sha256, size: v.size, installed_at: v.installedAt, active: v.version === record.activeVersion,
      })),
      config_schema: manifest.config ?? null,
      settings: { base_url: record.settings.baseUrl, config: maskSecrets(manifest, record.settings.config) },
      env_base_url: process.env[sourceUrlVariable(record.id)]?.trim() || null,
    });
  });

  r.post('/apimt/upload_script/', { ...admin, schema: { response: { 200: PluginItemResponse, ...errors } } }, async (request) => {
    const { bytes, fileName } = await receivePackage(request);
    const record = await ctx.plugins.install(await readPluginPackage(bytes, fileName), 'upload');
    await changed(request, record.id);
    return ok(pluginItem(record), '上传成功！');
  });

  r.post('/apimt/enable_script/', { ...admin, schema: { body: EnablePluginRequest, response: { 200: PluginItemResponse, ...errors } } }, async (request) => {
    const record = await ctx.plugins.setEnabled(request.body.id, request.body.enabled, 'admin');
    await changed(request, record.id);
    return ok(pluginItem(record), request.body.enabled ? '已启用' : '已停用');
  });

  r.post('/apimt/configure_script/', { ...admin, schema: { body: ConfigurePluginRequest, response: { 200: PluginItemResponse, ...errors } } }, async (request) => {
    const { id, base_url: baseUrl, config } = request.body;
    const current = await mustGet(id);
    const record = await ctx.plugins.configure(id, {
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(config !== undefined ? { config: unmaskSecrets(activeManifest(current), config, current.settings.config) } : {}),
    });
    await changed(request, id);
    return ok(pluginItem(record), '保存成功！');
  });

  r.post('/apimt/activate_script_version/', { ...admin, schema: { body: PluginVersionRequest, response: { 200: PluginItemResponse, ...errors } } }, async (request) => {
    const record = await ctx.plugins.activate(request.body.id, request.body.version);
    await changed(request, record.id);
    return ok(pluginItem(record), '切换成功！');
  });

  r.post('/apimt/remove_script/', { ...admin, schema: { body: RemovePluginRequest, response: { 200: PluginRemoveResponse, ...errors } } }, async (request) => {
    const record = await ctx.plugins.remove(request.body.id, request.body.version);
    await changed(request, request.body.id);
    return ok(record && pluginItem(record), '删除成功！');
  });
}

/** The single `upload_file` part, at most the package limit (refused with the package's own code beyond it). */
async function receivePackage(request: FastifyRequest): Promise<{ bytes: Buffer; fileName: string }> {
  if (!request.isMultipart()) {
    throw invalid('TAGSONIC_ERR_UPLOAD_NOT_MULTIPART', `Send the plugin package as multipart/form-data in the field "${UPLOAD_FIELD}".`);
  }
  const part = await request.file({ limits: { fileSize: PACKAGE_LIMITS.uploadBytes, files: 1, fields: 10 } });
  if (!part) throw invalid('TAGSONIC_ERR_UPLOAD_MISSING', `No file was sent; use the form field "${UPLOAD_FIELD}".`);
  if (part.fieldname !== UPLOAD_FIELD) {
    part.file.resume();
    throw invalid('TAGSONIC_ERR_UPLOAD_MISSING', `The file must be sent in the form field "${UPLOAD_FIELD}", not "${part.fieldname}".`);
  }
  try {
    const bytes = await part.toBuffer();
    if (bytes.length === 0) throw invalid('TAGSONIC_ERR_UPLOAD_EMPTY', 'The uploaded file is empty.');
    return { bytes, fileName: part.filename };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw invalid(PACKAGE_TOO_LARGE, `The package is larger than ${PACKAGE_LIMITS.uploadBytes / (1024 * 1024)} MiB, the most that can be uploaded.`);
    }
    throw error;
  }
}

const activeManifest = (record: PluginRecord): Manifest => record.versions.find((v) => v.version === record.activeVersion)!.manifest;

/** One row of the /mod and /actionMod lists: the active version's manifest with the record's state and health. */
export function pluginItem(record: PluginRecord) {
  const manifest = activeManifest(record);
  return {
    id: record.id,
    name: manifest.name,
    version: record.activeVersion,
    description: manifest.description,
    kind: record.kind,
    builtin: record.builtin,
    enabled: record.enabled,
    disabled_reason: record.disabledReason,
    permissions: permissionList(manifest),
    health: {
      calls: record.health.calls,
      failures: record.health.failures,
      p50_ms: record.health.p50Ms,
      last_success_at: record.health.lastSuccessAt,
      last_error: record.health.lastError,
    },
    updated_at: record.updatedAt,
  };
}

/** Every grant with its reason, one row per http host, in the manifest's order. */
function permissionList(manifest: Manifest): Array<{ kind: string; detail: string; reason: string }> {
  const rows: Array<{ kind: string; detail: string; reason: string }> = [];
  // Read generically: a grant added to the SDK later (e.g. `sources`) is listed without a change here.
  for (const [kind, grant] of Object.entries(manifest.permissions as Record<string, Record<string, unknown> | undefined>)) {
    if (!grant) continue;
    if (kind === 'http') {
      for (const host of (grant.hosts as Array<{ host: string; reason: string }>) ?? []) rows.push({ kind, detail: host.host, reason: host.reason });
      continue;
    }
    const detail = typeof grant.access === 'string' ? grant.access : Array.isArray(grant.ids) ? grant.ids.join(', ') : '';
    rows.push({ kind, detail, reason: String(grant.reason ?? '') });
  }
  return rows;
}

const secretKeys = (manifest: Manifest): string[] =>
  Object.entries(manifest.config?.properties ?? {}).filter(([, field]) => field.type === 'string' && field.secret).map(([key]) => key);

function maskSecrets(manifest: Manifest, config: Record<string, unknown>): Record<string, unknown> {
  const masked = { ...config };
  for (const key of secretKeys(manifest)) if (typeof masked[key] === 'string' && masked[key] !== '') masked[key] = SECRET_MASK;
  return masked;
}

function unmaskSecrets(manifest: Manifest, given: Record<string, unknown>, stored: Record<string, unknown>): Record<string, unknown> {
  const config = { ...given };
  for (const key of secretKeys(manifest)) if (config[key] === SECRET_MASK) config[key] = stored[key];
  return config;
}
