import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { Menu, MenuDivider, MenuItem, Popover } from '../../../components/ui/menu.tsx';
import { DISPLAY_VERSION, PROJECT_VERSION } from '../../../lib/constants.ts';
import { useLang, useT } from '../../../lib/i18n.ts';
import { useSession } from '../../../stores/session-store.ts';
import { ManualDialog } from './manual-dialog.tsx';

/** Admin backend (everyone), manual (per edition), about with the version, activate V2 (V1), language, logout (§1). */
export function UserMenu({ onOpenActivation, onLogout }: { onOpenActivation: () => void; onLogout: () => void }) {
  const t = useT();
  const user = useSession((s) => s.user);
  const { lang, setLang } = useLang();
  const [about, setAbout] = useState(false);
  const [manual, setManual] = useState(false);

  const menu = (
    <Menu aria-label={t('用户菜单')}>
      <MenuItem icon="shield" text={t('管理后台')} href="/admin/" />
      <MenuItem icon="manual" text={t('使用手册')} onClick={() => setManual(true)} />
      <MenuItem icon="info-sign" text={t('关于作者')} onClick={() => setAbout(true)} />
      {user?.role === 'V1' ? <MenuItem icon="key" text={t('激活 V2')} onClick={onOpenActivation} /> : null}
      <MenuItem icon="translate" text={lang === 'en' ? '中文' : 'English'} onClick={() => setLang(lang === 'en' ? 'zh-CN' : 'en')} />
      <MenuDivider />
      <MenuItem icon="log-out" intent="danger" text={t('退出登录')} onClick={onLogout} />
    </Menu>
  );

  return (
    <>
      <Popover content={menu} placement="bottom-end">
        <Button variant="minimal" icon="user" endIcon="caret-down" text={<span className="ts-hide-small">{user?.username}</span>} aria-label={t('用户菜单')} />
      </Popover>
      <Dialog isOpen={about} onClose={() => setAbout(false)} title={t('关于')} icon="info-sign">
        <DialogBody>
          <p>
            <strong>Tagsonic</strong> — {t('自托管的音乐库管理与标签编辑器')}
          </p>
          <p data-testid="about-version">
            {t('版本')} {DISPLAY_VERSION} ({PROJECT_VERSION})
          </p>
          <p className="ts-muted">{t('以 AGPL-3.0 许可发布。')}</p>
        </DialogBody>
        <DialogFooter actions={<Button text={t('关闭')} onClick={() => setAbout(false)} />} />
      </Dialog>
      <ManualDialog isOpen={manual} onClose={() => setManual(false)} edition={user?.role ?? 'V1'} />
    </>
  );
}
