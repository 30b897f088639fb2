import { useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { uploadCover } from '../../../../lib/upload-image.ts';
import { coverUrl } from '../../lib/cover-url.ts';

/**
 * The picture part of the artist and genre drawers: the current (or newly chosen) picture and an upload
 * button. `value` undefined shows the item's own cover; otherwise the uploaded or suggested picture.
 */
export function CoverPicker({ coverArt, value, onChange, testId }: { coverArt?: string; value: string | undefined; onChange: (url: string | undefined) => void; testId: string }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    setBusy(true);
    const url = await uploadCover(file);
    setBusy(false);
    if (url) onChange(url);
  };

  // A picture to send is an upload's or a source's URL, or a library cover id (a genre's album cover suggestion).
  const preview = value === undefined ? coverUrl(coverArt, 300) : value === '' ? coverUrl(undefined, 300) : /^(https?:|\/|data:)/i.test(value) ? value : coverUrl(value, 300);
  return (
    <div className="ts-entity-cover-edit">
      <img src={preview} alt={t('封面')} className="ts-entity-cover-preview" data-testid={`${testId}-preview`} />
      <div className="ts-row">
        <input ref={input} type="file" accept="image/jpeg,image/png,image/webp" hidden data-testid={`${testId}-file`} onChange={(e) => void pick(e.currentTarget.files?.[0])} />
        <Button size="small" icon="upload" loading={busy} text={t('上传封面')} onClick={() => input.current?.click()} />
        {value !== undefined ? <Button size="small" variant="minimal" icon="undo" text={t('还原')} onClick={() => onChange(undefined)} /> : null}
      </div>
    </div>
  );
}
