import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Radio, RadioGroup } from '../../../components/ui/form.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { deleteTrack, type DeleteTrackMode } from '../api/delete-track.ts';
import type { SubsonicSong } from '../api/types.ts';
import { titleOf } from '../lib/format.ts';

/**
 * Confirms a song's delete and picks its mode: move the file to the trash (undoable from the log), or only
 * take it out of the library and keep the file. Nothing is sent until the user confirms.
 */
export function DeleteTrackDialog({ song, onClose, onDeleted }: { song: SubsonicSong | null; onClose: () => void; onDeleted?: (song: SubsonicSong, mode: DeleteTrackMode) => void }) {
  const t = useT();
  const [mode, setMode] = useState<DeleteTrackMode>('delete_file');
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!song) return;
    setBusy(true);
    try {
      await deleteTrack(song.id, mode);
      onDeleted?.(song, mode);
      onClose();
    } catch {
      // apiCall already said 删除失败！ with the server's message; the dialog stays for another try.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen={song !== null} onClose={onClose} title={t('删除歌曲')} icon="trash" className="ts-library-dialog">
      <DialogBody>
        <p>{t('确定删除「{title}」吗？', { title: song ? t(titleOf(song)) : '' })}</p>
        <RadioGroup selectedValue={mode} onChange={(e) => setMode(e.currentTarget.value as DeleteTrackMode)}>
          <Radio value="delete_file" label={t('删除文件（移到回收站，可在日志中撤销）')} />
          <Radio value="delete_track" label={t('仅从音乐库移除（保留文件）')} />
        </RadioGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="danger" text={t('删除')} loading={busy} onClick={confirm} data-testid="confirm-delete-track" />
          </>
        }
      />
    </Dialog>
  );
}
