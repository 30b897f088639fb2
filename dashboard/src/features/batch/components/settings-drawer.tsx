import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { FormGroup, NumericInput, Switch } from '../../../components/ui/form.tsx';
import { Drawer } from '../../../components/ui/overlay.tsx';
import { DEFAULT_FOLDER_LIMIT } from '../../../lib/constants.ts';
import { useT } from '../../../lib/i18n.ts';
import { loadSetting, saveSetting } from '../../../lib/local-settings.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useIsMobile } from '../../../lib/use-media.ts';
import { useBatchStore } from '../stores/batch-store.ts';

/** The route's maximum list size (file_id3_list `limit`). */
const MAX_LIMIT = 5000;

/**
 * 批量设置: the browser-saved scanning settings of §3/§9 — sub-folders (depth 1 or -1), WebDAV scanning and
 * its depth, the folder list limit. Views read them when they open, hence the notice asks for a reload (§8).
 */
export function SettingsDrawer() {
  const t = useT();
  const mobile = useIsMobile();
  const isOpen = useBatchStore((s) => s.active === 'settings');
  const [depth, setDepth] = useState(false);
  const [webdav, setWebdav] = useState(false);
  const [webdavDepth, setWebdavDepth] = useState(false);
  const [limit, setLimit] = useState(DEFAULT_FOLDER_LIMIT);

  useEffect(() => {
    if (!isOpen) return;
    setDepth(loadSetting('isDepth', false));
    setWebdav(loadSetting('isOpenWebdav', false));
    setWebdavDepth(loadSetting('isDepthWebdav', false));
    setLimit(loadSetting('limit', DEFAULT_FOLDER_LIMIT));
  }, [isOpen]);

  const close = () => useBatchStore.getState().show(null);
  const save = () => {
    saveSetting('isDepth', depth);
    saveSetting('isOpenWebdav', webdav);
    saveSetting('isDepthWebdav', webdavDepth);
    saveSetting('limit', Math.min(MAX_LIMIT, Math.max(1, Math.round(limit))));
    notifySuccess(t('保存成功！'), t('设置已保存，请刷新页面生效'), 2000);
    close();
  };

  return (
    <Drawer isOpen={isOpen} onClose={close} title={t('批量设置')} icon="cog" size={mobile ? '100%' : 420} className="ts-batch-drawer">
      <div className="ts-drawer-body ts-batch-form" data-action="settings">
        <Switch checked={depth} label={t('扫描所有子文件夹')} onChange={(e) => setDepth(e.currentTarget.checked)} data-setting="isDepth" />
        <Switch checked={webdav} label={t('扫描 WebDAV 文件夹的标签')} onChange={(e) => setWebdav(e.currentTarget.checked)} data-setting="isOpenWebdav" />
        <Switch checked={webdavDepth} disabled={!webdav} label={t('WebDAV 也扫描子文件夹')} onChange={(e) => setWebdavDepth(e.currentTarget.checked)} data-setting="isDepthWebdav" />
        <FormGroup label={t('列表数量上限')} helperText={t('1 – {max}', { max: MAX_LIMIT })}>
          <NumericInput value={limit} min={1} max={MAX_LIMIT} stepSize={10} onValueChange={(v) => setLimit(Number.isFinite(v) ? v : DEFAULT_FOLDER_LIMIT)} />
        </FormGroup>
      </div>
      <div className="ts-batch-drawer-footer">
        <div className="ts-batch-footer">
          <Button text={t('取消')} onClick={close} />
          <Button intent="primary" text={t('保存')} onClick={save} data-testid="batch-submit" />
        </div>
      </div>
    </Drawer>
  );
}
