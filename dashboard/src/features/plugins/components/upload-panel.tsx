import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Callout, Icon } from '../../../components/ui/display.tsx';
import { FileInput } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { uploadPlugin } from '../api/upload-plugin.ts';
import type { PluginItem } from '../api/types.ts';

/** The gateway's upload limit (issue 11 contract): checked here too, so a huge file is not sent for nothing. */
const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

/**
 * The 插件市场 tab: upload a custom plugin, a bundled `.js` (manifest in its first comment) or a `.zip` with a
 * manifest.json. A new plugin arrives disabled; `onUploaded` opens it so its permissions are read first.
 */
export function UploadPanel({ isAdmin, onUploaded }: { isAdmin: boolean; onUploaded: (item: PluginItem) => void }) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const tooBig = file !== null && file.size > MAX_UPLOAD_BYTES;
  const wrongType = file !== null && !/\.(js|zip)$/i.test(file.name);

  const upload = () => {
    if (!file) return;
    setBusy(true);
    void uploadPlugin(file)
      .then(
        (item) => {
          setFile(null);
          onUploaded(item);
        },
        () => undefined,
      )
      .finally(() => setBusy(false));
  };

  return (
    <div className="ts-plugin-market" data-testid="plugin-market">
      <div className="ts-plugin-upload">
        <Icon icon="cloud-upload" size={36} className="ts-muted" />
        <h3>{t('上传自定义插件')}</h3>
        <p className="ts-muted">{t('一个打包好的 .js 文件，或包含 manifest.json 的 .zip（最大 2 MB）。新插件上传后处于停用状态，查看它的权限后再启用。')}</p>
        {isAdmin ? (
          <div className="ts-row ts-plugin-upload-row">
            <FileInput
              className="ts-grow"
              text={file ? file.name : t('选择文件…')}
              buttonText={t('浏览')}
              hasSelection={file !== null}
              inputProps={{ accept: '.js,.zip,application/zip,text/javascript', 'aria-label': t('插件文件') }}
              onInputChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
            />
            <Button intent="primary" icon="upload" text={t('上传')} loading={busy} disabled={!file || tooBig || wrongType} onClick={upload} data-testid="plugin-upload" />
          </div>
        ) : (
          <Callout icon="lock">{t('只有管理员可以上传插件。')}</Callout>
        )}
        {tooBig ? <Callout intent="danger">{t('文件超过 2 MB，无法上传。')}</Callout> : null}
        {wrongType ? <Callout intent="danger">{t('只能上传 .js 或 .zip 文件。')}</Callout> : null}
      </div>
      <p className="ts-muted ts-small">{t('同一插件的新版本会替换当前版本，旧版本保留在详情中，可以随时切换回去。')}</p>
    </div>
  );
}
