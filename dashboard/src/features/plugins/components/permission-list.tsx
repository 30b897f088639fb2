import { Icon, Tag, type IconName } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import type { PluginPermission } from '../api/types.ts';
import { PERMISSION_ICON, isWriteAccess, permissionText, summarisePermissions } from '../lib/permissions.ts';

/** Every permission with the author's reason: what the administrator reads before enabling a plugin. */
export function PermissionList({ permissions }: { permissions: PluginPermission[] }) {
  const t = useT();
  if (permissions.length === 0) return <p className="ts-muted" data-testid="plugin-permissions-none">{t('此插件不需要任何权限。')}</p>;
  return (
    <ul className="ts-plugin-permissions" data-testid="plugin-permissions">
      {permissions.map((p, i) => {
        const { key, params } = permissionText(p);
        return (
          <li key={`${p.kind}-${p.detail}-${i}`} data-permission={p.kind} className={isWriteAccess(p) ? 'ts-plugin-write' : undefined}>
            <Icon icon={PERMISSION_ICON[p.kind] as IconName} intent={isWriteAccess(p) ? 'warning' : 'none'} />
            <div>
              <div className="ts-plugin-permission-what">{t(key, params)}</div>
              {p.reason ? <div className="ts-muted ts-small">{p.reason}</div> : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** The list's one-line summary: an icon per kind, the first hosts, write access in orange. */
export function PermissionSummary({ permissions }: { permissions: PluginPermission[] }) {
  const t = useT();
  const parts = summarisePermissions(permissions);
  if (parts.length === 0) return <span className="ts-muted ts-small">{t('无需权限')}</span>;
  return (
    <span className="ts-plugin-summary" aria-label={t('权限')}>
      {parts.map((part) => {
        const first = permissions.find((p) => p.kind === part.kind && (part.details.length === 0 || p.detail === part.details[0]))!;
        const label =
          part.kind === 'http'
            ? part.details.join(', ') + (part.more > 0 ? ` +${part.more}` : '')
            : t(permissionText(first).key, { detail: part.details.join(', ') });
        return (
          <Tag key={part.kind} minimal icon={PERMISSION_ICON[part.kind] as IconName} intent={part.write ? 'warning' : 'none'} data-permission={part.kind}>
            {label}
          </Tag>
        );
      })}
    </span>
  );
}
