import { useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { HTMLTable } from '../../../../components/ui/display.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../../components/ui/overlay.tsx';
import { SECONDS } from '../../../../lib/constants.ts';
import { useT } from '../../../../lib/i18n.ts';
import { notifySuccess } from '../../../../lib/notify.ts';
import { importPlaylist, type ImportReport } from '../../api/import-playlist.ts';

/**
 * 导入歌单: picks an m3u/m3u8 file and uploads it (spec §2 Playlists). A success says how many entries
 * matched; entries that named no library file are listed with their line so the user can fix the file.
 */
export function ImportPlaylistButton({ onImported }: { onImported: (report: ImportReport) => void }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const done = await importPlaylist(file);
      notifySuccess(t('导入成功！'), t('{name}：匹配 {matched} 首，未匹配 {unmatched} 首', { name: done.name, matched: done.matched, unmatched: done.unmatched.length }), SECONDS.three);
      if (done.unmatched.length) setReport(done);
      onImported(done);
    } catch {
      // importPlaylist raised 导入失败！ with the server's message.
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".m3u,.m3u8,audio/x-mpegurl,audio/mpegurl,application/vnd.apple.mpegurl"
        hidden
        data-testid="import-playlist-file"
        onChange={(e) => void upload(e.target.files?.[0])}
      />
      <Button icon="import" text={t('导入歌单')} loading={busy} data-testid="import-playlist" onClick={() => input.current?.click()} />
      <Dialog isOpen={report !== null} onClose={() => setReport(null)} title={t('未匹配的条目')} icon="warning-sign">
        <DialogBody>
          <div data-testid="import-unmatched">
            <p>{t('这些条目没有找到对应的音乐文件，其余 {matched} 首已导入“{name}”。', { matched: report?.matched ?? 0, name: report?.name ?? '' })}</p>
            <HTMLTable compact striped className="ts-import-unmatched">
              <thead>
                <tr>
                  <th>{t('行')}</th>
                  <th>{t('条目')}</th>
                </tr>
              </thead>
              <tbody>
                {report?.unmatched.map((u) => (
                  <tr key={`${u.line}:${u.entry}`}>
                    <td>{u.line}</td>
                    <td className="ts-break-all">{u.entry}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        </DialogBody>
        <DialogFooter actions={<Button text={t('关闭')} onClick={() => setReport(null)} />} />
      </Dialog>
    </>
  );
}
