import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { FormGroup, InputGroup, SegmentedControl } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { previewRegex, type PreviewRegexResult } from '../api/preview-regex.ts';
import { label } from '../lib/labels.ts';
import { EXTRACT_FIELDS, splitDefaults, splitPayload, type SplitForm } from '../lib/payloads.ts';
import { ActionFrame } from './action-frame.tsx';
import { useBatchContext } from './batch-context.ts';

/**
 * 拆分文本 (splitFilename): patterns whose named groups are tag fields, tried in order on the file name,
 * title or lyrics; a sample can be tried against them first (preview_regex).
 */
export function SplitDrawer({ onPreview }: { onPreview: (payload: object) => void }) {
  const t = useT();
  const { selection } = useBatchContext();
  const [form, setForm] = useState<SplitForm>(splitDefaults);
  const [sample, setSample] = useState(() => selection.select_data.find((s) => !s.icon.includes('folder'))?.name ?? '');
  const [result, setResult] = useState<PreviewRegexResult | null>(null);
  const [busy, setBusy] = useState(false);
  const rules = () => form.rule_list.filter((r) => r.trim() !== '');
  const tryIt = async () => {
    if (rules().length === 0 || sample === '') return;
    setBusy(true);
    try {
      setResult(await previewRegex({ preview_text: sample, mode: 'split_filename', rule_list: rules() }));
    } catch {
      setResult(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ActionFrame action="split" onPreview={onPreview} payload={() => (rules().length === 0 ? '请至少填写一条规则' : splitPayload(selection, form))}>
      <FormGroup label={t('从哪里提取')}>
        <SegmentedControl options={EXTRACT_FIELDS.map((f) => ({ value: f, label: t(label(f)) }))} value={form.extract_field} onValueChange={(v) => setForm((s) => ({ ...s, extract_field: v as SplitForm['extract_field'] }))} />
      </FormGroup>
      <FormGroup label={t('规则')} helperText={t('命名分组即字段，如 (?<artist>.+?) - (?<title>.+)；依次尝试，第一条匹配的生效')}>
        {form.rule_list.map((r, i) => (
          <div key={i} className="ts-batch-pair">
            <InputGroup value={r} aria-label={t('规则 {n}', { n: i + 1 })} onChange={(e) => {
            const { value } = e.currentTarget;
            setForm((s) => ({ ...s, rule_list: s.rule_list.map((x, j) => (j === i ? value : x)) }));
          }} />
            <Button variant="minimal" icon="trash" aria-label={t('删除')} onClick={() => setForm((s) => ({ ...s, rule_list: s.rule_list.filter((_, j) => j !== i) }))} />
          </div>
        ))}
        <Button size="small" icon="add" text={t('添加一行')} onClick={() => setForm((s) => ({ ...s, rule_list: [...s.rule_list, ''] }))} />
      </FormGroup>
      <FormGroup label={t('试一试')}>
        <div className="ts-batch-pair">
          <InputGroup value={sample} placeholder={t('示例文本')} aria-label={t('示例文本')} onChange={(e) => setSample(e.currentTarget.value)} />
          <Button text={t('预览')} loading={busy} onClick={() => void tryIt()} data-testid="regex-preview" />
        </div>
        {result ? (
          <div className="ts-batch-sample" data-testid="regex-result">
            {result.matched_rule < 0 ? (
              <span className="ts-muted">{t('没有规则匹配')}</span>
            ) : (
              Object.entries(result.fields).map(([k, v]) => (
                <div key={k}>
                  <strong>{t(label(k))}</strong>: {v}
                </div>
              ))
            )}
          </div>
        ) : null}
      </FormGroup>
    </ActionFrame>
  );
}
