import { useEffect, useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Spinner } from '../../../../components/ui/display.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../../components/ui/overlay.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { countAlbumFiles, deleteAlbum, type AlbumDeleted } from '../../api/delete-album.ts';

/**
 * The album's DELETE dialog: says how many files go (a dry run of delete_album counts them), that they go to
 * the trash and can be undone from the log; only the confirm button deletes.
 */
export function AlbumDeleteDialog({ albumId, name, isOpen, onClose, onDeleted }: { albumId: string; name: string; isOpen: boolean; onClose: () => void; onDeleted: (answer: AlbumDeleted) => void }) {
  const t = useT();
  const [total, setTotal] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!isOpen) return;
    let live = true;
    setTotal(null);
    countAlbumFiles(albumId).then(
      (a) => live && setTotal(a.total),
      () => live && setTotal(-1),
    );
    return () => {
      live = false;
    };
  }, [isOpen, albumId]);

  const confirm = async () => {
    setBusy(true);
    try {
      const answer = await deleteAlbum(albumId);
      onClose();
      onDeleted(answer);
    } catch {
      // 删除失败！ has been shown.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('删除专辑')} icon="trash" className="ts-library-dialog">
      <DialogBody>
        <p>{t('确定删除专辑「{name}」吗？', { name })}</p>
        {total === null ? <Spinner size={20} /> : total >= 0 ? <p data-testid="album-delete-count">{t('它的 {n} 个文件将移到回收站，可在日志中撤销。', { n: total })}</p> : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="danger" icon="trash" text={t('删除')} loading={busy} disabled={total === null} onClick={() => void confirm()} data-testid="confirm-delete-album" />
          </>
        }
      />
    </Dialog>
  );
}
