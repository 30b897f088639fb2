import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { HTMLTable, NonIdealState, Spinner, Tag } from '../../../components/ui/display.tsx';
import { Alert, Drawer } from '../../../components/ui/overlay.tsx';
import { useFormatDateTime } from '../../../lib/dates.ts';
import { useT } from '../../../lib/i18n.ts';
import { activatePluginVersion } from '../api/activate-plugin-version.ts';
import { getPluginDetail } from '../api/get-plugin-detail.ts';
import { removePlugin } from '../api/remove-plugin.ts';
import type { PluginDetail, PluginVersionInfo } from '../api/types.ts';
import { EnableSwitch } from './enable-switch.tsx';
import { PermissionList } from './permission-list.tsx';
import { HealthFigures, HealthTag, LastError } from './plugin-health.tsx';
import { SettingsForm } from './settings-form.tsx';

type Removal = { version: string } | { plugin: true } | null;

const kib = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 102.4) / 10} KB`);

/**
 * One plugin in full (POST /apimt/script_detail/): health, every permission with its reason, settings, and the
 * kept versions to switch between or remove. `onChanged` tells the list to reload; removing the whole plugin
 * closes the drawer.
 */
export function PluginDrawer({ id, isAdmin, onClose, onChanged }: { id: string | null; isAdmin: boolean; onClose: () => void; onChanged: () => void }) {
  const t = useT();
  const date = useFormatDateTime();
  const [detail, setDetail] = useState<PluginDetail | null>(null);
  const [failed, setFailed] = useState(false);
  const [removal, setRemoval] = useState<Removal>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    if (!id) return;
    try {
      setDetail(await getPluginDetail(id));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [id]);

  useEffect(() => {
    setDetail(null);
    void load();
  }, [load]);

  const changed = () => {
    onChanged();
    void load();
  };

  const activate = (v: PluginVersionInfo) => {
    if (!detail) return;
    setBusy(true);
    void activatePluginVersion(detail.id, v.version)
      .then(changed, () => undefined)
      .finally(() => setBusy(false));
  };

  const remove = () => {
    if (!detail || !removal) return;
    const version = 'version' in removal ? removal.version : undefined;
    setBusy(true);
    void removePlugin(detail.id, version)
      .then(
        (left) => {
          setRemoval(null);
          onChanged();
          if (left === null) onClose();
          else void load();
        },
        () => setRemoval(null),
      )
      .finally(() => setBusy(false));
  };

  const uploadedVersions = detail?.versions.filter((v) => v.origin === 'upload').length ?? 0;

  return (
    <Drawer isOpen={id !== null} onClose={onClose} size="min(620px, 100vw)" title={detail ? detail.name : t('插件详情')} icon="cube" className="ts-plugin-drawer">
      <div className="ts-drawer-body" data-testid="plugin-detail" data-plugin={detail?.id}>
        {detail === null ? (
          failed ? <NonIdealState icon="error" title={t('查询失败！')} action={<Button icon="refresh" text={t('重试')} onClick={() => void load()} />} /> : <Spinner />
        ) : (
          <>
            <div className="ts-plugin-detail-head">
              <Tag minimal round>
                v{detail.version}
              </Tag>
              {detail.builtin ? (
                <Tag minimal intent="primary">
                  {t('内置')}
                </Tag>
              ) : null}
              <code className="ts-small ts-muted">{detail.id}</code>
              <HealthTag item={detail} />
              <span className="ts-grow" />
              <EnableSwitch item={detail} isAdmin={isAdmin} onChanged={changed} large />
            </div>
            <p>{detail.description}</p>

            <h4 className="ts-section-title">{t('运行状况')}</h4>
            <HealthFigures health={detail.health} />
            <LastError health={detail.health} />

            <h4 className="ts-section-title">{t('权限')}</h4>
            <PermissionList permissions={detail.permissions} />

            <h4 className="ts-section-title">{t('设置')}</h4>
            <SettingsForm key={`${detail.version}-${detail.updated_at}`} detail={detail} isAdmin={isAdmin} onSaved={changed} />

            <h4 className="ts-section-title">{t('版本')}</h4>
            <div className="ts-scroll-x">
              <HTMLTable compact striped className="ts-plugin-versions" data-testid="plugin-versions">
                <thead>
                  <tr>
                    <th>{t('版本')}</th>
                    <th>{t('来源')}</th>
                    <th>{t('安装时间')}</th>
                    <th>{t('大小')}</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {detail.versions.map((v) => (
                    <tr key={v.version} data-version={v.version} data-active={v.active ? 'true' : 'false'}>
                      <td>
                        <strong>{v.version}</strong>{' '}
                        {v.active ? (
                          <Tag minimal intent="success">
                            {t('当前')}
                          </Tag>
                        ) : null}
                        <div className="ts-muted ts-small ts-mono" title={v.sha256}>
                          {v.sha256.slice(0, 12)}
                        </div>
                      </td>
                      <td>{v.origin === 'builtin' ? t('内置') : t('上传|来源')}</td>
                      <td className="ts-small">{date(v.installed_at)}</td>
                      <td className="ts-small">{kib(v.size)}</td>
                      <td className="ts-nowrap">
                        {isAdmin && !v.active ? (
                          <>
                            <Button size="small" icon="history" text={t('切换到此版本')} disabled={busy} onClick={() => activate(v)} data-testid="plugin-activate" />
                            {v.origin === 'upload' ? (
                              <Button size="small" variant="minimal" intent="danger" icon="trash" aria-label={t('删除此版本')} disabled={busy} onClick={() => setRemoval({ version: v.version })} data-testid="plugin-remove-version" />
                            ) : null}
                          </>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </div>

            {isAdmin && uploadedVersions > 0 && !detail.builtin ? (
              <div className="ts-gap-top">
                <Button intent="danger" icon="trash" text={t('删除插件')} onClick={() => setRemoval({ plugin: true })} data-testid="plugin-remove" />
              </div>
            ) : null}
            {isAdmin && detail.builtin && uploadedVersions > 0 ? (
              <p className="ts-muted ts-small ts-gap-top">{t('内置版本不能删除；可以删除上传的版本，或切换回内置版本。')}</p>
            ) : null}
          </>
        )}
      </div>
      <Alert
        isOpen={removal !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('删除')}
        cancelButtonText={t('取消')}
        loading={busy}
        onCancel={() => setRemoval(null)}
        onConfirm={remove}
      >
        {removal && detail
          ? 'version' in removal
            ? t('确定删除 {name} 的版本 {version}？', { name: detail.name, version: removal.version })
            : t('确定删除插件 {name} 及其所有版本和设置？', { name: detail.name })
          : null}
      </Alert>
    </Drawer>
  );
}
