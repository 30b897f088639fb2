import { Button } from '../../../components/ui/button.tsx';
import { Card, Tag } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import type { PluginItem } from '../api/types.ts';
import { EnableSwitch } from './enable-switch.tsx';
import { PermissionSummary } from './permission-list.tsx';
import { healthState } from '../lib/health.ts';
import { HealthFigures, HealthTag, LastErrorLine } from './plugin-health.tsx';

/** One installed plugin in the list: what it is, whether it runs, what it may do, and how it is doing. */
export function PluginRow({ item, isAdmin, onOpen, onChanged }: { item: PluginItem; isAdmin: boolean; onOpen: () => void; onChanged: (item: PluginItem) => void }) {
  const t = useT();
  return (
    <Card className="ts-plugin-row" data-plugin={item.id} data-enabled={item.enabled ? 'true' : 'false'} compact>
      <div className="ts-plugin-row-head">
        <button type="button" className="ts-plugin-name ts-link" onClick={onOpen}>
          {item.name}
        </button>
        <Tag minimal round data-testid="plugin-version">
          v{item.version}
        </Tag>
        {item.builtin ? (
          <Tag minimal intent="primary" data-testid="plugin-builtin">
            {t('内置')}
          </Tag>
        ) : null}
        <HealthTag item={item} />
        <span className="ts-plugin-actions">
          <EnableSwitch item={item} isAdmin={isAdmin} onChanged={onChanged} onNeedsSettings={onOpen} />
          <Button size="small" variant="minimal" icon="info-sign" text={t('详情')} onClick={onOpen} />
        </span>
      </div>
      <p className="ts-plugin-description">{item.description}</p>
      {healthState(item) === 'ok' || healthState(item) === 'unused' ? null : <LastErrorLine health={item.health} />}
      <div className="ts-plugin-row-foot">
        <PermissionSummary permissions={item.permissions} />
        <HealthFigures health={item.health} />
      </div>
    </Card>
  );
}
