import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/display.tsx';
import { Dialog } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyError } from '../../../lib/notify.ts';
import { getImage } from '../api/get-image.ts';
import { useFilesStore } from '../stores/files-store.ts';

/** Modal image preview with a spinner and a close button (§2). */
export function ImagePreviewDialog() {
  const t = useT();
  const node = useFilesStore((s) => s.preview);
  const close = () => useFilesStore.getState().setPreview(null);
  const [image, setImage] = useState<{ src: string; width: number; height: number; size: number } | null>(null);

  useEffect(() => {
    setImage(null);
    if (!node) return;
    const controller = new AbortController();
    getImage(node.full_path, controller.signal).then(setImage, () => undefined);
    return () => controller.abort();
  }, [node]);

  return (
    <Dialog isOpen={node !== null} onClose={close} title={node?.name} icon="media" className="ts-preview-dialog">
      <div className="ts-preview-body">
        {image ? (
          <img src={image.src} alt={node?.name ?? ''} onError={() => notifyError(t('图片加载失败'), t('无法加载图片'), 3000)} />
        ) : (
          <Spinner aria-label={t('加载中')} />
        )}
      </div>
      <div className="ts-preview-foot">
        <span className="ts-muted">{image ? `${image.width} × ${image.height} · ${(image.size / 1024).toFixed(0)} KB` : ''}</span>
        <Button text={t('关闭')} onClick={close} />
      </div>
    </Dialog>
  );
}
