import { useState } from 'react';
import { FormGroup, HTMLSelect, NumericInput, Switch } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { BIT_RATES, convertDefaults, convertPayload, MUSIC_TYPES, SAMPLE_RATES, type ConvertForm } from '../lib/payloads.ts';
import { ActionFrame } from './action-frame.tsx';
import { useBatchContext } from './batch-context.ts';

const optionText = (v: string | number, keep: string, custom: string, unit: string) => (v === -1 || v === 'keep' ? keep : v === 'custom' ? custom : `${v}${unit}`);

/**
 * 格式转换 (formatMusic): target format (or keep), bitrate and sample rate (keep, a preset or custom; the
 * custom inputs appear only when custom is chosen, §4), keep the source file. Needs ffmpeg on the server.
 */
export function ConvertDrawer({ onPreview }: { onPreview: (payload: object) => void }) {
  const t = useT();
  const { selection } = useBatchContext();
  const [form, setForm] = useState<ConvertForm>(convertDefaults);
  const patch = (p: Partial<ConvertForm>) => setForm((s) => ({ ...s, ...p }));
  const check = () => {
    if (form.bit_rate === 'custom' && !(form.bit_rate_custom && form.bit_rate_custom >= 8 && form.bit_rate_custom <= 2000)) return '自定义比特率应在 8 到 2000 kbps 之间';
    if (form.sample_rate === 'custom' && !(form.sample_rate_custom && form.sample_rate_custom >= 8000 && form.sample_rate_custom <= 384000)) return '自定义采样率应在 8000 到 384000 Hz 之间';
    return convertPayload(selection, form);
  };
  const parse = (v: string) => (v === 'custom' || v === 'keep' ? v : Number(v));
  return (
    <ActionFrame action="convert" payload={check} onPreview={onPreview}>
      <FormGroup label={t('目标格式')}>
        <HTMLSelect value={form.music_type} onChange={(e) => patch({ music_type: e.currentTarget.value as ConvertForm['music_type'] })} data-option="music_type">
          {MUSIC_TYPES.map((m) => (
            <option key={m} value={m}>
              {optionText(m, t('保持原格式'), '', '')}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('比特率')}>
        <HTMLSelect value={String(form.bit_rate)} onChange={(e) => patch({ bit_rate: parse(e.currentTarget.value) as ConvertForm['bit_rate'] })} data-option="bit_rate">
          {BIT_RATES.map((b) => (
            <option key={b} value={String(b)}>
              {optionText(b, t('保持原样'), t('自定义'), ' kbps')}
            </option>
          ))}
        </HTMLSelect>
        {form.bit_rate === 'custom' ? (
          <NumericInput value={form.bit_rate_custom ?? ''} min={8} max={2000} placeholder="kbps" onValueChange={(v) => patch({ bit_rate_custom: Number.isFinite(v) ? v : null })} data-option="bit_rate_custom" />
        ) : null}
      </FormGroup>
      <FormGroup label={t('采样率')}>
        <HTMLSelect value={String(form.sample_rate)} onChange={(e) => patch({ sample_rate: parse(e.currentTarget.value) as ConvertForm['sample_rate'] })} data-option="sample_rate">
          {SAMPLE_RATES.map((s) => (
            <option key={s} value={String(s)}>
              {optionText(s, t('保持原样'), t('自定义'), ' Hz')}
            </option>
          ))}
        </HTMLSelect>
        {form.sample_rate === 'custom' ? (
          <NumericInput value={form.sample_rate_custom ?? ''} min={8000} max={384000} placeholder="Hz" onValueChange={(v) => patch({ sample_rate_custom: Number.isFinite(v) ? v : null })} data-option="sample_rate_custom" />
        ) : null}
      </FormGroup>
      <Switch checked={form.is_keep_source} label={t('保留源文件')} onChange={(e) => patch({ is_keep_source: e.currentTarget.checked })} data-option="is_keep_source" />
    </ActionFrame>
  );
}
