import './batch.css';
import { useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Tag } from '../../../components/ui/display.tsx';
import { Tooltip } from '../../../components/ui/menu.tsx';
import { Drawer } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyWarning } from '../../../lib/notify.ts';
import { isV2, useSession } from '../../../stores/session-store.ts';
import { BATCH_ACTIONS, type ActionId, type BatchActionInfo } from '../lib/actions.ts';
import type { BatchSelection } from '../lib/payloads.ts';
import { useBatchStore } from '../stores/batch-store.ts';
import { AutoEditDrawer } from './auto-edit-drawer.tsx';
import { BatchContext } from './batch-context.ts';
import { ConvertDrawer } from './convert-drawer.tsx';
import { CueDrawer } from './cue-drawer.tsx';
import { DryRunDialog } from './dry-run-dialog.tsx';
import { ManualEditDrawer } from './manual-edit-drawer.tsx';
import { DuplicateModal, EncodingModal, ImportModal, RegainModal, RemoveNullModal, SimplifiedModal, StrmModal } from './modals.tsx';
import { ReplaceDrawer } from './replace-drawer.tsx';
import { SettingsDrawer } from './settings-drawer.tsx';
import { SplitDrawer } from './split-drawer.tsx';
import { TidyDrawer } from './tidy-drawer.tsx';

interface BatchBarProps {
  selection: BatchSelection;
  /** After a task was created: the file screen reloads its list. */
  onCreated: () => void;
  /** Small screens: the bar is a bottom drawer opened by the badge. */
  mobile?: boolean;
}

/**
 * The batch side bar (§2): a badge toggle with the number of ticked entries opens it; its buttons open the
 * drawers and modals of every batch action. The detail mode (a line under each button) folds and is
 * remembered. V2-only actions are disabled for V1; with nothing ticked an action says '请先勾选文件或文件夹！'.
 */
export function BatchBar({ selection, onCreated, mobile = false }: BatchBarProps) {
  const t = useT();
  const { detail, loading } = useBatchStore();
  const count = selection.select_data.length;
  const open = useBatchStore((s) => (count > 0 ? s.open : s.openEmpty));
  // On a phone the bar is a drawer: it opens only when asked, not on every tick.
  const [mobileOpen, setMobileOpen] = useState(false);
  const v2 = useSession((s) => isV2(s.user));
  const [dryRun, setDryRun] = useState<{ action: ActionId; payload: object } | null>(null);
  const context = useMemo(() => ({ selection, onCreated }), [selection, onCreated]);

  const start = (a: BatchActionInfo) => {
    // The settings drawer saves browser settings: it needs no ticks.
    if (a.route && count === 0) {
      notifyWarning(t('请先勾选文件或文件夹！'), undefined, 2000);
      return;
    }
    useBatchStore.getState().show(a.id);
  };
  const preview = (action: ActionId) => (payload: object) => setDryRun({ action, payload });

  const group = (kind: BatchActionInfo['kind']) => (
    <div className={`ts-batch-actions${detail ? ' ts-batch-detail' : ''}`} role="group" aria-label={t(kind === 'drawer' ? '编辑与整理' : '工具')}>
      {BATCH_ACTIONS.filter((a) => a.kind === kind).map((a) => {
        const locked = a.v2 === true && !v2;
        const button = (
          <Button
            key={a.id}
            icon={a.icon}
            alignText="left"
            fill
            disabled={loading || locked}
            onClick={() => start(a)}
            data-batch-action={a.id}
            text={
              <span className="ts-batch-label">
                <span>{t(a.label)}</span>
                {locked ? <Tag minimal>V2</Tag> : null}
                {detail ? <small className="ts-muted">{t(a.hint)}</small> : null}
              </span>
            }
          />
        );
        return locked ? (
          <Tooltip key={a.id} content={t('此功能仅对 V2 版本开放。')} placement="top">
            {button}
          </Tooltip>
        ) : (
          button
        );
      })}
    </div>
  );

  const bar = (
    <div className="ts-batch-bar" data-testid="batch-bar" data-detail={detail ? 'on' : 'off'}>
      <div className="ts-batch-head">
        <strong>{t('批量操作')}</strong>
        <span className="ts-grow" />
        <Button size="small" variant="minimal" icon={detail ? 'collapse-all' : 'expand-all'} text={t(detail ? '收起说明' : '显示说明')} onClick={() => useBatchStore.getState().toggleDetail()} data-testid="batch-detail-toggle" />
      </div>
      {group('drawer')}
      {group('modal')}
    </div>
  );

  const toggle = (
    <Button
      className="ts-batch-toggle"
      icon="layers"
      active={mobile ? mobileOpen : open}
      onClick={() => (mobile ? setMobileOpen(!mobileOpen) : useBatchStore.getState().toggleOpen(count > 0))}
      data-testid="batch-toggle"
      aria-expanded={mobile ? mobileOpen : open}
      text={
        <span className="ts-batch-toggle-text">
          {t('批量操作')}
          <Tag round intent={count > 0 ? 'primary' : 'none'} data-testid="batch-count">
            {count}
          </Tag>
        </span>
      }
    />
  );

  return (
    <BatchContext.Provider value={context}>
      {mobile ? (
        <>
          {toggle}
          <Drawer isOpen={mobileOpen} onClose={() => setMobileOpen(false)} title={t('批量操作')} position="bottom" size="85%" className="ts-mobile-drawer">
            <div className="ts-drawer-body">{bar}</div>
          </Drawer>
        </>
      ) : (
        <div className="ts-batch-side">
          {toggle}
          {open ? bar : null}
        </div>
      )}
      <SettingsDrawer />
      <ManualEditDrawer />
      <AutoEditDrawer />
      <TidyDrawer onPreview={preview('tidy')} />
      <SplitDrawer onPreview={preview('split')} />
      <ReplaceDrawer onPreview={preview('replace')} />
      <ConvertDrawer onPreview={preview('convert')} />
      <CueDrawer />
      <RemoveNullModal />
      <ImportModal />
      <EncodingModal onPreview={preview('encoding')} />
      <DuplicateModal />
      <RegainModal />
      <StrmModal />
      <SimplifiedModal mode="sim2trad" onPreview={preview('sim2trad')} />
      <SimplifiedModal mode="trad2sim" onPreview={preview('trad2sim')} />
      <DryRunDialog request={dryRun} onClose={() => setDryRun(null)} onApplied={onCreated} />
    </BatchContext.Provider>
  );
}
