import { useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Switch } from '../../../components/ui/form.tsx';
import { Drawer } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyWarning } from '../../../lib/notify.ts';
import { THEME_NAMES, paletteOf } from '../../../lib/themes.ts';
import { useSession } from '../../../stores/session-store.ts';
import { useThemeStore } from '../../../stores/theme-store.ts';
import { restoreBackground } from '../api/restore-background.ts';
import { uploadBackground } from '../api/upload-background.ts';
import { useShell } from '../stores/shell-store.ts';

/** The 32 named themes plus charles; hide, upload or clear the background picture (§2). */
export function ThemeDrawer() {
  const t = useT();
  const open = useShell((s) => s.themeOpen);
  const setOpen = useShell((s) => s.setThemeOpen);
  const { theme, setTheme, hideBackground, setHideBackground } = useThemeStore();
  const patchUser = useSession((s) => s.patchUser);
  const sysDict = useSession((s) => s.user?.sys_dict);
  const fileRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);

  /**
   * Both buttons are disabled while a request runs, and a disabled button drops the focus to the page body,
   * where Escape no longer reaches the drawer: the drawer's body holds the focus instead.
   */
  const holdFocus = () => bodyRef.current?.focus();

  async function upload(file: File | undefined) {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      notifyWarning(t('上传失败！'), t('只能上传图片文件'), 3000);
      return;
    }
    holdFocus();
    setBusy(true);
    try {
      const url = await uploadBackground(file);
      if (sysDict) patchUser({ sys_dict: { ...sysDict, background_url: url } });
    } catch {
      // 上传失败！ has been shown.
    } finally {
      setBusy(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  }

  async function clear() {
    holdFocus();
    setBusy(true);
    try {
      await restoreBackground();
      if (sysDict) patchUser({ sys_dict: { ...sysDict, background_url: null } });
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  }

  return (
    <Drawer isOpen={open} onClose={() => setOpen(false)} title={t('主题')} icon="style" size="min(360px, 92vw)">
      <div className="ts-drawer-body" ref={bodyRef} tabIndex={-1}>
        <div className="ts-theme-grid" role="radiogroup" aria-label={t('主题')}>
          {THEME_NAMES.map((name) => {
            const p = paletteOf(name);
            return (
              <button
                key={name}
                type="button"
                role="radio"
                aria-checked={theme === name}
                data-theme-name={name}
                className={`ts-theme-swatch${theme === name ? ' ts-active' : ''}`}
                style={{ background: p.base100, color: p.text, borderRadius: p.radius }}
                onClick={() => setTheme(name)}
              >
                <span className="ts-theme-name">{name}</span>
                <span className="ts-theme-dots" aria-hidden="true">
                  <i style={{ background: p.primary }} />
                  <i style={{ background: p.secondary }} />
                  <i style={{ background: p.accent }} />
                  <i style={{ background: p.neutral }} />
                </span>
              </button>
            );
          })}
        </div>
        <h4 className="ts-section-title">{t('背景图片')}</h4>
        <Switch checked={hideBackground} label={t('隐藏背景图片')} onChange={(e) => setHideBackground(e.currentTarget.checked)} />
        <input ref={fileRef} type="file" accept="image/*" hidden data-testid="background-file" onChange={(e) => void upload(e.currentTarget.files?.[0])} />
        <div className="ts-row">
          <Button icon="upload" text={t('上传背景')} loading={busy} onClick={() => fileRef.current?.click()} />
          <Button icon="reset" text={t('恢复默认')} disabled={busy || !sysDict?.background_url} onClick={() => void clear()} />
        </div>
      </div>
    </Drawer>
  );
}
