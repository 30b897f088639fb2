import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { FormGroup, InputGroup, SegmentedControl } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { previewRegex, type PreviewRegexResult } from '../api/preview-regex.ts';
import { replaceDefaults, replacePayload, TEXT_FIELDS, usablePairs, type ReplaceForm } from '../lib/payloads.ts';
import { ActionFrame } from './action-frame.tsx';
import { useBatchContext } from './batch-context.ts';
import { FieldChecklist, PairList } from './form-parts.tsx';

/**
 * 替换文本 (replaceText): before → after pairs applied in order to the chosen fields, as plain text or
 * regular expressions (the server's engine is linear-time); a sample shows the result first (preview_regex).
 */
export function ReplaceDrawer({ onPreview }: { onPreview: (payload: object) => void }) {
  const t = useT();
  const { selection } = useBatchContext();
  const [form, setForm] = useState<ReplaceForm>(replaceDefaults);
  const [sample, setSample] = useState('');
  const [result, setResult] = useState<PreviewRegexResult | null>(null);
  const [busy, setBusy] = useState(false);
  const patch = (p: Partial<ReplaceForm>) => setForm((s) => ({ ...s, ...p }));
  const check = () => {
    if (usablePairs(form.replace_text_list).length === 0) return '请至少填写一条替换规则';
    if (form.modify_list.length === 0) return '请至少选择一个字段';
    return replacePayload(selection, form);
  };
  const tryIt = async () => {
    const rules = usablePairs(form.replace_text_list);
    if (rules.length === 0) return;
    setBusy(true);
    try {
      setResult(await previewRegex({ preview_text: sample, mode: 'replace_text', rule_list: rules, replace_mode: form.replace_mode }));
    } catch {
      setResult(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ActionFrame action="replace" payload={check} onPreview={onPreview}>
      <FormGroup label={t('替换方式')}>
        <SegmentedControl
          options={[
            { value: 'text', label: t('文本') },
            { value: 'regex', label: t('正则') },
          ]}
          value={form.replace_mode}
          onValueChange={(v) => patch({ replace_mode: v as ReplaceForm['replace_mode'] })}
          data-testid="replace-mode"
        />
      </FormGroup>
      <FormGroup label={t('替换规则')} helperText={form.replace_mode === 'regex' ? t('正则中可用 $1 引用分组') : undefined}>
        <PairList value={form.replace_text_list} onChange={(replace_text_list) => patch({ replace_text_list })} beforeHint="查找" afterHint="替换为" />
      </FormGroup>
      <FieldChecklist title="修改范围" name="modify_list" fields={TEXT_FIELDS} value={form.modify_list} onChange={(modify_list) => patch({ modify_list })} />
      <FormGroup label={t('试一试')}>
        <div className="ts-batch-pair">
          <InputGroup value={sample} placeholder={t('示例文本')} aria-label={t('示例文本')} onChange={(e) => setSample(e.currentTarget.value)} />
          <Button text={t('预览')} loading={busy} onClick={() => void tryIt()} data-testid="regex-preview" />
        </div>
        {result ? (
          <div className="ts-batch-sample" data-testid="regex-result">
            <span>{result.text}</span> <span className="ts-muted">{t('（替换 {n} 处）', { n: result.count })}</span>
          </div>
        ) : null}
      </FormGroup>
    </ActionFrame>
  );
}
