/**
 * A plugin's permissions in words: what each grant lets it do (the reason the author gave is shown beside it),
 * and a one-line summary for the list.
 */
import type { PermissionKind, PluginPermission } from '../api/types.ts';

/** i18n keys (Chinese wording) with `{detail}` for the host. */
const LABEL: Record<PermissionKind, (detail: string) => string> = {
  http: () => '访问网站 {detail}',
  files: (d) => (d === 'write' ? '读取、移动、复制和删除媒体文件' : '读取媒体文件'),
  tags: (d) => (d === 'write' ? '读取和修改音乐标签' : '读取音乐标签'),
  ffmpeg: () => '运行 ffmpeg 处理音频',
  fingerprint: () => '计算音频指纹',
  sources: () => '调用其他已安装的数据源',
  llm: () => '使用系统设置中的大模型',
};

export const PERMISSION_ICON: Record<PermissionKind, string> = {
  http: 'globe-network',
  files: 'folder-open',
  tags: 'tag',
  ffmpeg: 'media',
  fingerprint: 'barcode',
  sources: 'layers',
  llm: 'chat',
};

/** The i18n key and its parameters for one permission. */
export function permissionText(p: PluginPermission): { key: string; params: { detail: string } } {
  const label = LABEL[p.kind] ?? (() => '{detail}');
  return { key: label(p.detail), params: { detail: p.detail } };
}

/** Write access to files or tags changes the user's library: the interface marks it. */
export const isWriteAccess = (p: PluginPermission): boolean => (p.kind === 'files' || p.kind === 'tags') && p.detail === 'write';

export interface PermissionSummaryPart {
  kind: PermissionKind;
  /** Hosts for `http` (at most `maxHosts`), otherwise the permission's detail. */
  details: string[];
  /** Hosts left out of `details`. */
  more: number;
  write: boolean;
}

/** One part per kind, in a fixed order, http hosts gathered into one part. */
export function summarisePermissions(permissions: PluginPermission[], maxHosts = 2): PermissionSummaryPart[] {
  const order: PermissionKind[] = ['http', 'files', 'tags', 'ffmpeg', 'fingerprint', 'sources', 'llm'];
  const parts: PermissionSummaryPart[] = [];
  for (const kind of order) {
    const of = permissions.filter((p) => p.kind === kind);
    if (of.length === 0) continue;
    const details = [...new Set(of.map((p) => p.detail).filter(Boolean))];
    const shown = kind === 'http' ? details.slice(0, maxHosts) : details;
    parts.push({ kind, details: shown, more: details.length - shown.length, write: of.some(isWriteAccess) });
  }
  return parts;
}
