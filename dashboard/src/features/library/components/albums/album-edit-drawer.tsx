import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Checkbox, FormGroup, InputGroup, TextArea } from '../../../../components/ui/form.tsx';
import { Drawer, DrawerSize } from '../../../../components/ui/overlay.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { postAlbum, type AlbumEdit, type AlbumEdited } from '../../api/post-album.ts';
import type { SubsonicAlbum } from '../../api/types.ts';
import { uploadCover } from '../../../../lib/upload-image.ts';
import { coverUrl } from '../../lib/cover-url.ts';

/**
 * The album's EDIT drawer (spec §2): cover upload (one file, ≤ 5 MB, ≤ 20 megapixels, checked here before
 * anything is sent), name, comment, and "write to metadata". Only what changed is sent to post_album;
 * it closes once saved and hands the answer (new id, task) to the page.
 */
export function AlbumEditDrawer({ album, comment, isOpen, onClose, onSaved }: { album: SubsonicAlbum; comment: string; isOpen: boolean; onClose: () => void; onSaved: (edit: AlbumEdit, answer: AlbumEdited) => void }) {
  const t = useT();
  const [name, setName] = useState(album.name);
  const [text, setText] = useState(comment);
  /** undefined: unchanged; '': removed; a URL: the uploaded picture. */
  const [cover, setCover] = useState<string | undefined>(undefined);
  const [write, setWrite] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  // Each opening starts from what the album says now.
  useEffect(() => {
    if (!isOpen) return;
    setName(album.name);
    setText(comment);
    setCover(undefined);
    setWrite(false);
  }, [isOpen, album.name, comment]);

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    setUploading(true);
    const url = await uploadCover(file);
    setUploading(false);
    if (url) setCover(url);
  };

  const save = async () => {
    const edit: AlbumEdit = { id: album.id };
    if (name.trim() !== album.name) edit.name = name.trim();
    if (text !== comment) edit.comment = text;
    if (cover !== undefined) edit.album_img = cover;
    if (write) edit.write_metadata = true;
    setSaving(true);
    try {
      const answer = await postAlbum(edit);
      onSaved(edit, answer);
      onClose();
    } catch {
      // 创建失败！ has been shown; the drawer stays open with the user's input.
    } finally {
      setSaving(false);
    }
  };

  const shown = cover === undefined ? coverUrl(album.coverArt, 300) : cover === '' ? coverUrl(undefined) : cover;
  return (
    <Drawer isOpen={isOpen} onClose={onClose} title={t('编辑专辑')} icon="edit" size={DrawerSize.SMALL} className="ts-album-drawer">
      <div className="ts-album-drawer-body" data-testid="album-edit-drawer">
        <FormGroup label={t('封面')} helperText={t('封面：一个图片文件，最大 5 MB、2000 万像素')}>
          <div className="ts-album-drawer-cover">
            <img src={shown} alt={t('封面')} width={120} height={120} referrerPolicy="no-referrer" data-testid="album-edit-cover" />
            <div className="ts-album-drawer-cover-actions">
              <input ref={input} type="file" accept="image/*" hidden onChange={(e) => void pick(e.currentTarget.files?.[0])} data-testid="album-cover-file" />
              <Button icon="upload" size="small" loading={uploading} text={t('更换封面')} onClick={() => input.current?.click()} />
              <Button icon="trash" size="small" variant="minimal" text={t('清除封面')} onClick={() => setCover('')} />
            </div>
          </div>
        </FormGroup>
        <FormGroup label={t('专辑名称')} labelFor="ts-album-name">
          <InputGroup id="ts-album-name" value={name} onValueChange={setName} data-testid="album-edit-name" />
        </FormGroup>
        <FormGroup label={t('备注')} labelFor="ts-album-comment">
          <TextArea id="ts-album-comment" value={text} onChange={(e) => setText(e.currentTarget.value)} fill rows={4} data-testid="album-edit-comment" />
        </FormGroup>
        <Checkbox checked={write} onChange={(e) => setWrite(e.currentTarget.checked)} label={t('写入元数据（把新的名称、备注和封面写入每首歌曲的标签）')} data-testid="album-edit-write" />
        <div className="ts-album-drawer-footer">
          <Button text={t('取消')} onClick={onClose} />
          <Button intent="primary" icon="floppy-disk" text={t('保存')} loading={saving} disabled={uploading || name.trim() === ''} onClick={() => void save()} data-testid="album-edit-save" />
        </div>
      </div>
    </Drawer>
  );
}
