import { useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { uploadCover } from '../../../lib/upload-image.ts';
import { useEditor } from '../stores/editor-store.ts';

/** The cover: preview, upload or replace (upload_image), remove, and the cover.jpg options. */
export function CoverField() {
  const t = useT();
  const info = useEditor((s) => s.info);
  const cover = useEditor((s) => s.cover);
  const options = useEditor((s) => s.options);
  const { setCover, setOption } = useEditor.getState();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  /** The picture URL that failed to load: a new cover (a source's URL copied in) gets its own chance. */
  const [broken, setBroken] = useState<string | null>(null);

  const shown = cover === undefined ? info?.album_img ?? '' : cover ?? '';

  async function pick(file: File | undefined) {
    if (input.current) input.current.value = '';
    if (!file) return;
    setBusy(true);
    const url = await uploadCover(file);
    setBusy(false);
    if (url) setCover(url);
  }

  return (
    <div className="ts-cover-field">
      <div className="ts-cover-preview" data-testid="cover-preview">
        {shown && broken !== shown ? (
          // A source's cover is shown straight from its site (the save has the server download it).
          <img src={shown} alt={t('封面')} referrerPolicy="no-referrer" onError={() => setBroken(shown)} />
        ) : (
          <span className="ts-muted">{t('无封面')}</span>
        )}
      </div>
      <div className="ts-cover-side">
        <div className="ts-muted ts-small">
          {cover === undefined && info && info.artwork_w > 0 ? `${info.artwork_w} × ${info.artwork_h} · ${(info.artwork_size / 1024).toFixed(0)} KB` : null}
          {typeof cover === 'string' ? t('新封面（保存后写入）') : null}
          {cover === null ? t('封面将被移除') : null}
        </div>
        <input ref={input} type="file" accept="image/jpeg,image/png,image/webp" hidden data-testid="cover-file" onChange={(e) => void pick(e.currentTarget.files?.[0])} />
        <div className="ts-row">
          <Button size="small" icon="upload" loading={busy} text={shown ? t('替换封面') : t('上传封面')} onClick={() => input.current?.click()} />
          {shown ? <Button size="small" icon="trash" variant="minimal" text={t('移除')} onClick={() => setCover(null)} /> : null}
          {cover !== undefined ? <Button size="small" icon="undo" variant="minimal" text={t('还原')} onClick={() => setCover(undefined)} /> : null}
        </div>
        <Checkbox checked={options.is_save_album_cover} label={t('保存为文件夹封面 cover.jpg')} onChange={(e) => setOption('is_save_album_cover', e.currentTarget.checked)} />
        <Checkbox checked={options.is_import_album_cover} label={t('从文件夹 cover.jpg 导入')} onChange={(e) => setOption('is_import_album_cover', e.currentTarget.checked)} />
      </div>
    </div>
  );
}
