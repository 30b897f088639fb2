/** The side bar's modals (§2): delete folder, import collection, encoding repair, duplicate check, replay gain, strm, sim/trad. */
import { useState } from 'react';
import { FormGroup, InputGroup, NumericInput, Radio, RadioGroup, Switch } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { DELETE_MODE_LABELS } from '../lib/labels.ts';
import {
  DELETE_MODES,
  duplicatePayload,
  encodingDefaults,
  encodingPayload,
  importDefaults,
  importPayload,
  regainPayload,
  removeNullPayload,
  simplifiedPayload,
  strmDefaults,
  strmPayload,
  TEXT_FIELDS,
  DEFAULT_TEXT_MODIFY,
  type EncodingForm,
  type ImportForm,
  type SimMode,
  type StrmForm,
} from '../lib/payloads.ts';
import { ActionFrame } from './action-frame.tsx';
import { useBatchContext } from './batch-context.ts';
import { FieldChecklist, PairList } from './form-parts.tsx';

type Preview = { onPreview: (payload: object) => void };

/** 删除空文件夹 (removeNullFolder): empty folders, folders without music, or both. */
export function RemoveNullModal() {
  const t = useT();
  const { selection } = useBatchContext();
  const [mode, setMode] = useState<(typeof DELETE_MODES)[number]>('null');
  return (
    <ActionFrame action="removeNull" closeOnSuccess payload={() => removeNullPayload(selection, mode)}>
      <RadioGroup selectedValue={mode} onChange={(e) => setMode(e.currentTarget.value as typeof mode)} label={t('删除哪些文件夹')}>
        {DELETE_MODES.map((m) => (
          <Radio key={m} value={m} label={t(DELETE_MODE_LABELS[m])} data-mode={m} />
        ))}
      </RadioGroup>
      <p className="ts-muted ts-batch-hint">{t('删除的内容先移入回收站，可从任务报告撤销。')}</p>
    </ActionFrame>
  );
}

/** 导入收藏 (importMusicIn, V2): adds the ticked tracks to the music collection at import_rate per second. */
export function ImportModal() {
  const t = useT();
  const { selection } = useBatchContext();
  const [form, setForm] = useState<ImportForm>(importDefaults);
  const check = () => (form.import_rate > 0 && form.import_rate <= 100 ? importPayload(selection, form) : '导入速率应在 1 到 100 之间');
  return (
    <ActionFrame action="import" closeOnSuccess payload={check}>
      <Switch checked={form.is_skip_exist} label={t('跳过已在收藏中的歌曲')} onChange={(e) => {
            const { checked } = e.currentTarget;
            setForm((s) => ({ ...s, is_skip_exist: checked }));
          }} data-option="is_skip_exist" />
      <FormGroup label={t('导入速率（首/秒）')}>
        <NumericInput value={form.import_rate} min={1} max={100} onValueChange={(v) => setForm((s) => ({ ...s, import_rate: v }))} data-option="import_rate" />
      </FormGroup>
    </ActionFrame>
  );
}

/** 乱码修复 (fixEncoding): repairs GBK/Big5/Shift-JIS/Latin-1 mojibake in the chosen fields; extra replacements optional. */
export function EncodingModal({ onPreview }: Preview) {
  const t = useT();
  const { selection } = useBatchContext();
  const [form, setForm] = useState<EncodingForm>(encodingDefaults);
  const check = () => (form.modify_list.length === 0 ? '请至少选择一个字段' : encodingPayload(selection, form));
  return (
    <ActionFrame action="encoding" closeOnSuccess payload={check} onPreview={onPreview}>
      <FieldChecklist title="修改范围" name="modify_list" fields={TEXT_FIELDS} value={form.modify_list} onChange={(modify_list) => setForm((s) => ({ ...s, modify_list }))} />
      <FormGroup label={t('修复后再替换（可选）')}>
        <PairList value={form.replace_text_list} onChange={(replace_text_list) => setForm((s) => ({ ...s, replace_text_list }))} beforeHint="查找" afterHint="替换为" />
      </FormGroup>
    </ActionFrame>
  );
}

/** 重复检查 (checkDuplicate, V2): by file hash and name, optionally by acoustid fingerprint; the report offers the deletes. */
export function DuplicateModal() {
  const t = useT();
  const { selection } = useBatchContext();
  const [acoustid, setAcoustid] = useState(false);
  return (
    <ActionFrame action="duplicate" closeOnSuccess payload={() => duplicatePayload(selection, acoustid)}>
      <p className="ts-batch-hint">{t('按文件哈希和文件名查找重复的歌曲，结果在任务报告中按规则删除。')}</p>
      <Switch checked={acoustid} label={t('同时按声纹（AcoustID）比对')} onChange={(e) => setAcoustid(e.currentTarget.checked)} data-option="is_acoustid" />
    </ActionFrame>
  );
}

/** 回放增益: EBU R128 loudness of each track (album gain per album), written as the four replaygain fields. */
export function RegainModal() {
  const t = useT();
  const { selection } = useBatchContext();
  return (
    <ActionFrame action="regain" closeOnSuccess payload={() => regainPayload(selection)}>
      <p className="ts-batch-hint">{t('计算勾选歌曲的响度（EBU R128），写入音轨与专辑的增益和峰值标签。')}</p>
    </ActionFrame>
  );
}

/** 生成strm文件 (generateStrm, V2): one .strm per track into save_dir, with signed links when is_sign. */
export function StrmModal() {
  const t = useT();
  const { selection } = useBatchContext();
  const [form, setForm] = useState<StrmForm>(strmDefaults);
  return (
    <ActionFrame action="strm" closeOnSuccess payload={() => (form.save_dir.trim() === '' ? '请填写保存目录' : strmPayload(selection, form))}>
      <FormGroup label={t('保存目录')} labelFor="ts-strm-dir">
        <InputGroup id="ts-strm-dir" value={form.save_dir} onChange={(e) => {
            const { value } = e.currentTarget;
            setForm((s) => ({ ...s, save_dir: value }));
          }} />
      </FormGroup>
      <Switch checked={form.is_sign} label={t('链接带签名')} onChange={(e) => {
            const { checked } = e.currentTarget;
            setForm((s) => ({ ...s, is_sign: checked }));
          }} data-option="is_sign" />
    </ActionFrame>
  );
}

/** 简转繁 / 繁转简 (simplifiedFields): one modal, titled by its mode (§4). */
export function SimplifiedModal({ mode, onPreview }: Preview & { mode: SimMode }) {
  const { selection } = useBatchContext();
  const [fields, setFields] = useState<string[]>(() => [...DEFAULT_TEXT_MODIFY]);
  return (
    <ActionFrame
      action={mode}
      title={mode === 'sim2trad' ? '简体转繁体' : '繁体转简体'}
      closeOnSuccess
      payload={() => (fields.length === 0 ? '请至少选择一个字段' : simplifiedPayload(selection, mode, fields))}
      onPreview={onPreview}
    >
      <FieldChecklist title="修改范围" name="modify_list" fields={TEXT_FIELDS} value={fields} onChange={setFields} />
    </ActionFrame>
  );
}
