import { useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { FormGroup, SegmentedControl, Switch } from '../../../../components/ui/form.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../../components/ui/overlay.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { FieldChecklist, OrderedPicker } from '../../../batch/components/form-parts.tsx';
import { MODE_LABELS } from '../../../batch/lib/labels.ts';
import { BATCH_SOURCES, MODIFY_FIELDS, SELECT_MODES } from '../../../batch/lib/payloads.ts';
import { useStartTask } from '../../hooks/use-start-task.ts';
import { missingDefaults, missingPayload, type MissingForm, type ScrapeKind } from '../../lib/missing-task.ts';
import { KIND_LABELS } from './kind-labels.ts';

/**
 * 自动刮削 of the tracks missing one kind (POST /apimt/missing_music_task/): match mode, sources in lookup order,
 * the fields it may change, skip tracks whose fields all exist, one album lookup per folder — the batch side bar's
 * form pieces, with the spec's defaults (simple; qmusic then netease; the missing field only).
 */
export function MissingScrapeDialog({ kind, onClose, onCreated }: { kind: ScrapeKind | null; onClose: () => void; onCreated: (taskId: string | null) => void }) {
  const t = useT();
  const [form, setForm] = useState<MissingForm | null>(null);
  const { busy, submit } = useStartTask('missing_music_task', onCreated, onClose);
  // A new kind opens with its own defaults.
  const [formKind, setFormKind] = useState<ScrapeKind | null>(null);
  if (kind !== formKind) {
    setFormKind(kind);
    setForm(kind ? missingDefaults(kind) : null);
  }
  const patch = (p: Partial<MissingForm>) => setForm((s) => (s ? { ...s, ...p } : s));

  return (
    <Dialog isOpen={kind !== null} onClose={onClose} title={kind ? t('自动刮削：{kind}', { kind: t(KIND_LABELS[kind].missing) }) : ''} icon="search-template" className="ts-progress-dialog">
      {form ? (
        <DialogBody>
          <div className="ts-batch-form" data-testid="missing-scrape-form">
            <FormGroup label={t('匹配模式')}>
              <SegmentedControl
                options={SELECT_MODES.map((m) => ({ value: m, label: t(MODE_LABELS[m]) }))}
                value={form.select_mode}
                onValueChange={(v) => patch({ select_mode: v as MissingForm['select_mode'] })}
              />
            </FormGroup>
            <OrderedPicker title="数据源" options={BATCH_SOURCES} value={form.source_list} onChange={(source_list) => patch({ source_list })} />
            <FieldChecklist title="修改范围" name="modify_list" fields={MODIFY_FIELDS} value={form.modify_list} onChange={(modify_list) => patch({ modify_list })} />
            <Switch checked={form.is_skip_tag} label={t('跳过已有标签的歌曲')} onChange={(e) => patch({ is_skip_tag: e.currentTarget.checked })} data-option="is_skip_tag" />
            <Switch checked={form.is_folder_album} label={t('同一文件夹视为同一专辑')} onChange={(e) => patch({ is_folder_album: e.currentTarget.checked })} data-option="is_folder_album" />
          </div>
        </DialogBody>
      ) : null}
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="primary" text={t('开始刮削')} loading={busy} onClick={() => void submit(kind && form ? missingPayload(kind, form) : null)} data-testid="missing-scrape-submit" />
          </>
        }
      />
    </Dialog>
  );
}
