import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { FormGroup, InputGroup, TextArea } from '../../../../components/ui/form.tsx';
import { Drawer } from '../../../../components/ui/overlay.tsx';
import { SECONDS } from '../../../../lib/constants.ts';
import { useT } from '../../../../lib/i18n.ts';
import { notifyError } from '../../../../lib/notify.ts';
import type { PlaylistSummary } from '../../api/playlist-types.ts';
import { putPlaylist } from '../../api/put-playlist.ts';
import { uploadCover } from '../../../../lib/upload-image.ts';
import { coverUrl } from '../../lib/cover-url.ts';

/**
 * The playlist's EDIT drawer (spec §2 Playlist detail): name, comment and cover, saved through
 * /apimt/put_playlist/. The cover is uploaded first (/apimt/upload_image/) and sent as playlist_img;
 * an untouched cover is not sent, so saving a name never changes the picture.
 */
export function PlaylistEditDrawer({ playlist, isOpen, onClose, onSaved }: { playlist: PlaylistSummary; isOpen: boolean; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const [name, setName] = useState(playlist.name);
  const [comment, setComment] = useState(playlist.comment ?? '');
  /** undefined: keep; '': clear; else the uploaded picture's URL. */
  const [cover, setCover] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    setName(playlist.name);
    setComment(playlist.comment ?? '');
    setCover(undefined);
  }, [isOpen, playlist]);

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    setBusy(true);
    const url = await uploadCover(file);
    setBusy(false);
    if (url) setCover(url);
  };


  const save = async () => {
    if (!name.trim()) {
      notifyError(t('修改失败！'), t('播放列表名称不能为空！'), SECONDS.two);
      return;
    }
    setSaving(true);
    try {
      await putPlaylist({ id: playlist.id, name: name.trim(), description: comment, ...(cover === undefined ? {} : { playlist_img: cover }) });
      onSaved();
      onClose();
    } catch {
      // 修改失败！ has been shown.
    } finally {
      setSaving(false);
    }
  };

  const preview = cover === undefined ? coverUrl(playlist.coverArt, 300) : cover === '' ? coverUrl(undefined, 300) : cover;

  return (
    <Drawer isOpen={isOpen} onClose={onClose} size="min(480px, 100vw)" title={t('编辑歌单')} icon="edit" className="ts-playlist-drawer">
      <div className="ts-drawer-body" data-testid="playlist-edit">
        <div className="ts-playlist-cover-edit">
          <img src={preview} alt={t('封面')} className="ts-playlist-cover-preview" />
          <div className="ts-row">
            <input ref={input} type="file" accept="image/jpeg,image/png,image/webp" hidden data-testid="playlist-cover-file" onChange={(e) => void pick(e.currentTarget.files?.[0])} />
            <Button size="small" icon="upload" loading={busy} text={t('上传封面')} onClick={() => input.current?.click()} />
            {playlist.coverArt || cover ? <Button size="small" variant="minimal" icon="trash" text={t('移除')} onClick={() => setCover('')} /> : null}
          </div>
        </div>
        <FormGroup label={t('歌单名称')} labelFor="ts-playlist-name" labelInfo="*">
          <InputGroup id="ts-playlist-name" value={name} onChange={(e) => setName(e.target.value)} />
        </FormGroup>
        <FormGroup label={t('描述')} labelFor="ts-playlist-comment">
          <TextArea id="ts-playlist-comment" fill rows={4} value={comment} onChange={(e) => setComment(e.target.value)} />
        </FormGroup>
        <div className="ts-row ts-drawer-actions">
          <Button text={t('取消')} onClick={onClose} />
          <Button intent="primary" icon="floppy-disk" text={t('保存')} loading={saving} data-testid="playlist-save" onClick={() => void save()} />
        </div>
      </div>
    </Drawer>
  );
}
