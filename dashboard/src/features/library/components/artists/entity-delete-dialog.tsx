import { useState, type ReactNode } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../../components/ui/overlay.tsx';
import { useT } from '../../../../lib/i18n.ts';

/**
 * Confirms an artist's or a genre's delete (spec §2: DELETE with a confirm dialog). `body` says what will
 * happen (the count of tracks once known); nothing is sent until the user confirms. `onConfirm` rejects
 * when the call failed (its notice is already shown): the dialog then stays for another try.
 */
export function EntityDeleteDialog({ isOpen, title, body, onClose, onConfirm, ready = true }: { isOpen: boolean; title: string; body: ReactNode; onClose: () => void; onConfirm: () => Promise<void>; ready?: boolean }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onClose();
    } catch {
      // 删除失败！ has been shown.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={title} icon="trash" className="ts-library-dialog">
      <DialogBody>
        <div data-testid="entity-delete-body">{body}</div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="danger" text={t('删除')} loading={busy} disabled={!ready} onClick={() => void confirm()} data-testid="confirm-entity-delete" />
          </>
        }
      />
    </Dialog>
  );
}
