import { useState } from 'react';
import { FormGroup, NumericInput, SegmentedControl, Switch } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { MODE_LABELS } from '../lib/labels.ts';
import { autoDefaults, autoPayload, BATCH_SOURCES, MODIFY_FIELDS, SELECT_MODES, type AutoForm } from '../lib/payloads.ts';
import { ActionFrame } from './action-frame.tsx';
import { useBatchContext } from './batch-context.ts';
import { FieldChecklist, OrderedPicker } from './form-parts.tsx';

/**
 * 自动刮削 (batchAutoUpdateId3): match mode, the sources in lookup order, skip tracks that already have
 * tags, one album lookup per folder, the request rate and which fields may change.
 */
export function AutoEditDrawer() {
  const t = useT();
  const { selection } = useBatchContext();
  const [form, setForm] = useState<AutoForm>(autoDefaults);
  const patch = (p: Partial<AutoForm>) => setForm((s) => ({ ...s, ...p }));
  const check = () => {
    if (form.source_list.length === 0) return '请至少选择一个数据源';
    if (form.modify_list.length === 0) return '请至少选择一个字段';
    if (!(form.scrape_rate > 0 && form.scrape_rate <= 10)) return '刮削速率应在 0.1 到 10 之间';
    return autoPayload(selection, form);
  };
  return (
    <ActionFrame action="auto" closeOnSuccess silentFailure payload={check}>
      <FormGroup label={t('匹配模式')}>
        <SegmentedControl
          options={SELECT_MODES.map((m) => ({ value: m, label: t(MODE_LABELS[m]) }))}
          value={form.select_mode}
          onValueChange={(v) => patch({ select_mode: v as AutoForm['select_mode'] })}
          data-testid="select-mode"
        />
      </FormGroup>
      <OrderedPicker title="数据源" options={BATCH_SOURCES} value={form.source_list} onChange={(source_list) => patch({ source_list })} />
      <Switch checked={form.is_skip_tag} label={t('跳过已有标签的歌曲')} onChange={(e) => patch({ is_skip_tag: e.currentTarget.checked })} data-option="is_skip_tag" />
      <Switch checked={form.is_folder_album} label={t('同一文件夹视为同一专辑')} onChange={(e) => patch({ is_folder_album: e.currentTarget.checked })} data-option="is_folder_album" />
      <FormGroup label={t('刮削速率（首/秒）')}>
        <NumericInput value={form.scrape_rate} min={0.1} max={10} stepSize={0.5} minorStepSize={0.1} onValueChange={(v) => patch({ scrape_rate: v })} data-option="scrape_rate" />
      </FormGroup>
      <FieldChecklist title="修改范围" name="modify_list" fields={MODIFY_FIELDS} value={form.modify_list} onChange={(modify_list) => patch({ modify_list })} />
    </ActionFrame>
  );
}
