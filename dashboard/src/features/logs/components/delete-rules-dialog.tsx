import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { Checkbox, FormGroup, HTMLSelect, InputGroup, RadioGroup, Radio } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { DEFAULT_DELETE_RULES, RULE_FORMATS, RULE_VALUES, type DeleteRulesForm, type RuleValue } from '../lib/duplicates.ts';

const RULE_LABELS: Record<RuleValue, string> = { larger: '删除较大的', smaller: '删除较小的', none: '不比较' };
const RULE_FIELDS: { key: 'sizeRule' | 'nameRule' | 'bitrateRule' | 'sampleRule' | 'metadataRule'; label: string }[] = [
  { key: 'sizeRule', label: '文件大小' },
  { key: 'nameRule', label: '文件名长度' },
  { key: 'bitrateRule', label: '比特率' },
  { key: 'sampleRule', label: '采样率' },
  { key: 'metadataRule', label: '标签完整度' },
];

/**
 * 规则删除: which file of each set of duplicates stays (spec doc 2 §3 "Duplicate-delete rules"). Formats earlier
 * in the priority stay first (ticked in order); then each rule says which file goes; the others are deleted or
 * moved into a folder.
 */
export function DeleteRulesDialog({ isOpen, onClose, onSubmit }: { isOpen: boolean; onClose: () => void; onSubmit: (form: DeleteRulesForm) => void }) {
  const t = useT();
  const [form, setForm] = useState<DeleteRulesForm>(DEFAULT_DELETE_RULES);
  const set = <K extends keyof DeleteRulesForm>(key: K, value: DeleteRulesForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const toggleFormat = (fmt: string) =>
    set('formatPriority', form.formatPriority.includes(fmt) ? form.formatPriority.filter((f) => f !== fmt) : [...form.formatPriority, fmt]);
  const missingDir = form.deleteMode === 'move' && !form.targetDir.trim();

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('规则删除')} icon="filter" className="ts-rules-dialog">
      <DialogBody>
        <FormGroup label={t('格式优先级（先勾选的保留）')}>
          <div className="ts-rule-formats">
            {RULE_FORMATS.map((fmt) => (
              <Checkbox key={fmt} inline checked={form.formatPriority.includes(fmt)} onChange={() => toggleFormat(fmt)}>
                {fmt}
                {form.formatPriority.includes(fmt) ? <sup className="ts-muted"> {form.formatPriority.indexOf(fmt) + 1}</sup> : null}
              </Checkbox>
            ))}
          </div>
        </FormGroup>
        <div className="ts-rule-grid">
          {RULE_FIELDS.map((r) => (
            <FormGroup key={r.key} label={t(r.label)} labelFor={`ts-rule-${r.key}`}>
              <HTMLSelect
                id={`ts-rule-${r.key}`}
                fill
                value={form[r.key]}
                onChange={(e) => set(r.key, e.target.value as RuleValue)}
                options={RULE_VALUES.map((v) => ({ value: v, label: t(RULE_LABELS[v]) }))}
              />
            </FormGroup>
          ))}
        </div>
        <RadioGroup label={t('删除方式')} inline selectedValue={form.deleteMode} onChange={(e) => set('deleteMode', e.currentTarget.value as 'direct' | 'move')}>
          <Radio value="direct" label={t('直接删除')} />
          <Radio value="move" label={t('移动到文件夹')} />
        </RadioGroup>
        {form.deleteMode === 'move' ? (
          <FormGroup label={t('目标文件夹')} labelFor="ts-rule-target" helperText={missingDir ? t('请填写目标文件夹') : undefined} intent={missingDir ? 'danger' : 'none'}>
            <InputGroup id="ts-rule-target" value={form.targetDir} onValueChange={(v) => set('targetDir', v)} placeholder="/music/duplicates" />
          </FormGroup>
        ) : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="primary" icon="eye-open" text={t('预览')} data-testid="rules-submit" disabled={missingDir} onClick={() => onSubmit(form)} />
          </>
        }
      />
    </Dialog>
  );
}
