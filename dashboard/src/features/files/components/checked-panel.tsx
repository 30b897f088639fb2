import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Section, SectionCard } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import type { ScrapeState } from '../api/types.ts';
import { updateFolderState } from '../api/update-folder-state.ts';
import { isSystemFile } from '../lib/system-files.ts';
import { checkedTopLevel, useFilesStore } from '../stores/files-store.ts';

/** The edit area while entries are checked: what is checked, and marking their scrape state. */
export function CheckedPanel() {
  const t = useT();
  const nodes = useFilesStore((s) => s.nodes);
  const checked = useFilesStore((s) => s.checked);
  const [busy, setBusy] = useState(false);
  const ticked = checkedTopLevel({ nodes, checked });
  // desktop.ini, Thumbs.db and the like are not the user's files: not counted, listed or marked.
  const top = ticked.filter((n) => n.is_dir || !isSystemFile(n.name));
  const systemFiles = ticked.length - top.length;
  const folders = top.filter((n) => n.is_dir).length;

  async function mark(state: ScrapeState) {
    setBusy(true);
    const s = useFilesStore.getState();
    try {
      // One 标记成功！ for the whole batch: only the last call announces itself.
      for (const [i, n] of top.entries()) {
        await updateFolderState(n.full_path, state, { quiet: i < top.length - 1 });
        s.patchNode(n.id, { state });
      }
    } catch {
      // 创建失败！ has been shown for the entry that failed.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title={t('已勾选')} icon="tick" className="ts-checked-panel" data-testid="checked-panel">
      <SectionCard>
        <p>
          {t('已勾选 {files} 个文件，{folders} 个文件夹。', { files: top.length - folders, folders })}
          {systemFiles > 0 ? <span className="ts-muted"> {t('（另有 {n} 个系统文件，不计入）', { n: systemFiles })}</span> : null}
        </p>
        <ul className="ts-checked-list">
          {top.slice(0, 12).map((n) => (
            <li key={n.id}>{n.name}</li>
          ))}
          {top.length > 12 ? <li className="ts-muted">{t('…以及另外 {n} 项', { n: top.length - 12 })}</li> : null}
        </ul>
        <div className="ts-row">
          <Button icon="tick-circle" text={t('标记为已刮削')} loading={busy} onClick={() => void mark('success')} />
          <Button icon="error" text={t('标记为失败')} disabled={busy} onClick={() => void mark('failed')} />
          <Button icon="circle" text={t('清除标记')} disabled={busy} onClick={() => void mark(null)} />
          <Button icon="cross" variant="minimal" text={t('取消勾选')} onClick={() => useFilesStore.getState().clearChecked()} />
        </div>
      </SectionCard>
    </Section>
  );
}
