import { useState } from 'react';
import { FormGroup, HTMLSelect, Switch } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { CUE_FORMATS, cueDefaults, cuePayload, type CueForm } from '../lib/payloads.ts';
import { ActionFrame } from './action-frame.tsx';
import { useBatchContext } from './batch-context.ts';

/** 切割音轨 (splitCueMusic): cuts each ticked CUE image into tracks of the target format, tagged from the sheet. */
export function CueDrawer() {
  const t = useT();
  const { selection } = useBatchContext();
  const [form, setForm] = useState<CueForm>(cueDefaults);
  return (
    <ActionFrame action="cue" payload={() => cuePayload(selection, form)}>
      <p className="ts-muted ts-batch-hint">{t('勾选 .cue 文件或包含它的文件夹；音轨的标签取自 CUE 表。')}</p>
      <FormGroup label={t('目标格式')}>
        <HTMLSelect value={form.target_format} onChange={(e) => {
            const { value } = e.currentTarget;
            setForm((s) => ({ ...s, target_format: value as CueForm['target_format'] }));
          }} data-option="target_format">
          {CUE_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <Switch checked={form.is_delete_source} label={t('切割后删除源文件')} onChange={(e) => {
            const { checked } = e.currentTarget;
            setForm((s) => ({ ...s, is_delete_source: checked }));
          }} data-option="is_delete_source" />
    </ActionFrame>
  );
}
