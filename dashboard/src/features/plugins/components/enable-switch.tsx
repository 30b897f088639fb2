import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Switch } from '../../../components/ui/form.tsx';
import { Alert } from '../../../components/ui/overlay.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.ts';
import { enablePlugin } from '../api/enable-plugin.ts';
import type { PluginItem } from '../api/types.ts';
import { PermissionList } from './permission-list.tsx';

/** The registry's refusal to enable a plugin whose required settings are not filled in. */
const CONFIG_INVALID = 'TAGSONIC_ERR_PLUGIN_CONFIG_INVALID';

/**
 * The enabled switch. Switching on a plugin that asks for permissions first lists them with their reasons and
 * waits for a confirmation; switching off happens at once. Only administrators may flip it. A plugin refused
 * for missing settings calls `onNeedsSettings` (the list opens its details, where the form is).
 */
export function EnableSwitch({ item, isAdmin, onChanged, onNeedsSettings, large }: { item: PluginItem; isAdmin: boolean; onChanged: (item: PluginItem) => void; onNeedsSettings?: () => void; large?: boolean }) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  /**
   * Closes the confirmation with the focus back on the switch at once: Blueprint gives it back only after the
   * closing animation (~300 ms), and meanwhile Escape reached neither the confirmation nor the drawer around it.
   */
  const close = () => {
    flushSync(() => setAsking(false));
    inputRef.current?.focus();
  };

  const apply = (enabled: boolean) => {
    setBusy(true);
    void enablePlugin(item.id, enabled)
      .then(onChanged, (e: unknown) => {
        if (isApiError(e) && e.code === CONFIG_INVALID) onNeedsSettings?.();
      })
      .finally(() => {
        // One render for the switch enabled again and the confirmation closed, then the focus (see close).
        flushSync(() => {
          setBusy(false);
          setAsking(false);
        });
        if (asking) inputRef.current?.focus();
      });
  };

  return (
    <>
      <Switch
        className="ts-plugin-switch"
        checked={item.enabled}
        disabled={!isAdmin || busy}
        size={large ? 'large' : 'medium'}
        label={item.enabled ? t('已启用') : t('已停用')}
        alignIndicator="end"
        title={isAdmin ? undefined : t('只有管理员可以启用或停用插件')}
        data-testid="plugin-enable"
        inputRef={inputRef}
        onChange={(e) => {
          const on = e.currentTarget.checked;
          if (on && item.permissions.length > 0) setAsking(true);
          else apply(on);
        }}
      />
      <Alert
        isOpen={asking}
        icon="shield"
        intent="primary"
        confirmButtonText={t('启用')}
        cancelButtonText={t('取消')}
        loading={busy}
        onCancel={close}
        onConfirm={() => apply(true)}
        className="ts-plugin-confirm"
      >
        <p>
          <strong>{t('启用 {name} {version}？', { name: item.name, version: item.version })}</strong>
        </p>
        <p>{t('它将获得以下权限：')}</p>
        <PermissionList permissions={item.permissions} />
      </Alert>
    </>
  );
}
