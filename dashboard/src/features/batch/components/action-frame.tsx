import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogFooter, Drawer } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyWarning } from '../../../lib/notify.ts';
import { useIsMobile } from '../../../lib/use-media.ts';
import { createBatchTask } from '../api/create-batch-task.ts';
import { actionInfo, type ActionId } from '../lib/actions.ts';
import { useBatchStore } from '../stores/batch-store.ts';
import { useBatchContext } from './batch-context.ts';

interface ActionFrameProps {
  action: ActionId;
  /** Overrides the action's label (the sim/trad modal is titled by its mode). */
  title?: string;
  /** The payload to post, or the text of what is wrong with the form (shown as a warning). */
  payload: () => object | string;
  /** Manual and auto edits, the duplicate check and the modals close on success; the other drawers stay (§4). */
  closeOnSuccess?: boolean;
  /** Manual and auto edits show nothing on failure (§8). */
  silentFailure?: boolean;
  /** After the task was created (tidy remembers its root path). */
  onSuccess?: () => void;
  /** The dry run's trigger, when the action has one: gets the payload, shows the changes. */
  onPreview?: (payload: object) => void;
  submitText?: string;
  children: ReactNode;
}

/**
 * A drawer or modal of the side bar: its form, and the footer that checks the ticks ('请先勾选文件或文件夹！'),
 * posts the payload with the loading flag set (every action button disabled meanwhile), and announces the task.
 */
export function ActionFrame({ action, title, payload, closeOnSuccess, silentFailure, onSuccess, onPreview, submitText = '确定', children }: ActionFrameProps) {
  const t = useT();
  const mobile = useIsMobile();
  const info = actionInfo(action);
  const { selection, onCreated } = useBatchContext();
  const isOpen = useBatchStore((s) => s.active === action);
  const loading = useBatchStore((s) => s.loading);
  const close = () => useBatchStore.getState().show(null);

  /** The payload when it may go: something ticked and the form complete. */
  const ready = (): object | null => {
    if (selection.select_data.length === 0) {
      notifyWarning(t('请先勾选文件或文件夹！'), undefined, 2000);
      return null;
    }
    const p = payload();
    if (typeof p === 'string') {
      notifyWarning(t(p), undefined, 3000);
      return null;
    }
    return p;
  };

  async function submit() {
    const p = ready();
    if (!p || !info.route) return;
    const store = useBatchStore.getState();
    store.setLoading(true);
    try {
      await createBatchTask(info.route, p, { silentFailure });
      onSuccess?.();
      onCreated();
      if (closeOnSuccess) close();
    } catch {
      // Announced by the client ('创建失败！'), or silent for the edits.
    } finally {
      useBatchStore.getState().setLoading(false);
    }
  }

  const preview = () => {
    const p = ready();
    if (p) onPreview?.(p);
  };

  const footer = (
    <div className="ts-batch-footer">
      <Button text={t('取消')} onClick={close} />
      {onPreview ? <Button icon="eye-open" text={t('预览变更')} disabled={loading} onClick={preview} data-testid="batch-preview" /> : null}
      <Button intent="primary" text={t(submitText)} loading={loading} onClick={() => void submit()} data-testid="batch-submit" />
    </div>
  );
  const heading = t(title ?? info.label);

  if (info.kind === 'drawer') {
    return (
      <Drawer isOpen={isOpen} onClose={close} title={heading} icon={info.icon} size={mobile ? '100%' : 520} className="ts-batch-drawer" data-action={action}>
        <div className="ts-drawer-body ts-batch-form" data-action={action}>
          {children}
        </div>
        <div className="ts-batch-drawer-footer">{footer}</div>
      </Drawer>
    );
  }
  return (
    <Dialog isOpen={isOpen} onClose={close} title={heading} icon={info.icon} className="ts-batch-dialog">
      <DialogBody>
        <div className="ts-batch-form" data-action={action}>
          {children}
        </div>
      </DialogBody>
      <DialogFooter actions={footer} />
    </Dialog>
  );
}
