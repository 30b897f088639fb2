import { useState } from 'react';
import { Checkbox, FormGroup, HTMLSelect, InputGroup, TextArea } from '../../../components/ui/form.tsx';
import { ALBUM_TYPES, LANGUAGES, TEMPLATE_VARIABLES } from '../../../lib/constants.ts';
import { useT } from '../../../lib/i18n.ts';
import { label } from '../lib/labels.ts';
import { MANUAL_FLAGS, MANUAL_TAG_FIELDS, manualDefaults, manualPayload, type ManualTagField } from '../lib/payloads.ts';
import { ActionFrame } from './action-frame.tsx';
import { useBatchContext } from './batch-context.ts';

/**
 * 手动修改 (batchUpdateId3): the fields typed here are written to every ticked track; empty ones are left
 * alone, `${title}`-style templates are filled per track by the server and `${null}` clears the field.
 */
export function ManualEditDrawer() {
  const t = useT();
  const { selection } = useBatchContext();
  const [form, setForm] = useState(manualDefaults);
  const setTag = (f: ManualTagField, v: string) => setForm((s) => ({ ...s, tags: { ...s.tags, [f]: v } }));
  const input = (f: ManualTagField) => {
    const value = form.tags[f] ?? '';
    if (f === 'lyrics') return <TextArea fill rows={4} value={value} onChange={(e) => setTag(f, e.currentTarget.value)} data-tag={f} />;
    if (f === 'album_type' || f === 'language') {
      const options = f === 'album_type' ? ALBUM_TYPES : LANGUAGES;
      return (
        <HTMLSelect fill value={value} onChange={(e) => setTag(f, e.currentTarget.value)} data-tag={f}>
          <option value="">{t('不修改')}</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </HTMLSelect>
      );
    }
    return <InputGroup value={value} placeholder={t('不修改')} onChange={(e) => setTag(f, e.currentTarget.value)} data-tag={f} />;
  };

  return (
    <ActionFrame action="manual" closeOnSuccess silentFailure payload={() => (Object.values(form.tags).some((v) => v) || Object.values(form.flags).some(Boolean) ? manualPayload(selection, form) : '请至少填写一个字段')}>
      <p className="ts-muted ts-batch-hint">{t('可用变量：{vars}；${null} 清空字段', { vars: TEMPLATE_VARIABLES.slice(0, 8).map((v) => `\${${v}}`).join(' ') })}</p>
      <div className="ts-batch-grid">
        {MANUAL_TAG_FIELDS.map((f) => (
          <FormGroup key={f} label={t(label(f))} className={f === 'lyrics' || f === 'comment' ? 'ts-batch-wide' : undefined}>
            {input(f)}
          </FormGroup>
        ))}
      </div>
      <FormGroup label={t('歌词与封面')}>
        {MANUAL_FLAGS.map((f) => (
          <Checkbox key={f} label={t(label(f))} checked={form.flags[f]} data-flag={f} onChange={(e) => {
            const { checked } = e.currentTarget;
            setForm((s) => ({ ...s, flags: { ...s.flags, [f]: checked } }));
          }} />
        ))}
      </FormGroup>
    </ActionFrame>
  );
}
