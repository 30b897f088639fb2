import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox, FormGroup, HTMLSelect, InputGroup, RadioGroup, Radio, Switch } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { loadSetting, saveSetting } from '../../../lib/local-settings.ts';
import { label, RULE_LABELS } from '../lib/labels.ts';
import { CLEAN_FORMATS, DEFAULT_TIDY_ROOT, RULE_OPTIONS, TIDY_DIMENSIONS, tidyDefaults, tidyPayload, type DirLevel, type Rule, type TidyForm } from '../lib/payloads.ts';
import { useBatchStore } from '../stores/batch-store.ts';
import { ActionFrame } from './action-frame.tsx';
import { useBatchContext } from './batch-context.ts';

const defaultRoot = (folder: string): string => (folder === '' || folder.startsWith(DEFAULT_TIDY_ROOT) || `${folder}/` === DEFAULT_TIDY_ROOT ? DEFAULT_TIDY_ROOT : folder);

const RULES = ['clean_size_rule', 'clean_bitrate_rule', 'clean_sample_rule', 'clean_name_rule'] as const;
const RULE_TITLES: Record<(typeof RULES)[number], string> = { clean_size_rule: '文件大小', clean_bitrate_rule: '比特率', clean_sample_rule: '采样率', clean_name_rule: '文件名长度' };

/**
 * 整理文件夹 (tidyFolder): moves the ticked tracks under root_path into one folder level per dimension
 * (a custom level takes a template in value2); the clean-music rules, shown only when switched on (§4),
 * decide which copy of a duplicate stays. A success remembers the root path in the browser.
 */
export function TidyDrawer({ onPreview }: { onPreview: (payload: object) => void }) {
  const t = useT();
  const { selection } = useBatchContext();
  const [form, setForm] = useState<TidyForm>(() => tidyDefaults(loadSetting('tidy_root_path', '')));
  const isOpen = useBatchStore((s) => s.active === 'tidy');
  // No remembered root: the spec's /app/media/ where the library lives there, else the folder shown.
  useEffect(() => {
    if (isOpen) setForm((s) => (s.root_path === '' ? { ...s, root_path: defaultRoot(selection.file_full_path) } : s));
  }, [isOpen, selection.file_full_path]);
  const rules = form.rule_form;
  const setRules = (p: Partial<TidyForm['rule_form']>) => setForm((s) => ({ ...s, rule_form: { ...s.rule_form, ...p } }));
  const setLevel = (i: number, p: Partial<DirLevel>) => setForm((s) => ({ ...s, dir_list: s.dir_list.map((d, j) => (j === i ? { ...d, ...p } : d)) }));
  const check = () => {
    if (form.root_path.trim() === '') return '请填写整理到的根目录';
    if (form.dir_list.length === 0) return '请至少添加一级文件夹';
    if (form.dir_list.some((d) => d.value === 'custom' && !d.value2?.trim())) return '自定义层级需要填写变量';
    if (rules.is_clean_music && rules.clean_format_priority.length === 0) return '请至少选择一种格式';
    return tidyPayload(selection, form);
  };

  return (
    <ActionFrame action="tidy" payload={check} onPreview={onPreview} onSuccess={() => saveSetting('tidy_root_path', form.root_path.trim())}>
      <FormGroup label={t('整理到的根目录')} labelFor="ts-tidy-root">
        <InputGroup id="ts-tidy-root" value={form.root_path} onChange={(e) => {
            const { value } = e.currentTarget;
            setForm((s) => ({ ...s, root_path: value }));
          }} />
      </FormGroup>
      <FormGroup label={t('文件夹层级')} helperText={t('例：艺术家 / 专辑 / 歌曲文件')}>
        <ol className="ts-batch-levels" data-testid="dir-list">
          {form.dir_list.map((d, i) => (
            <li key={i}>
              <HTMLSelect value={d.value} onChange={(e) => setLevel(i, { value: e.currentTarget.value as DirLevel['value'] })} aria-label={t('第 {n} 级', { n: i + 1 })}>
                {TIDY_DIMENSIONS.map((dim) => (
                  <option key={dim} value={dim}>
                    {t(label(dim))}
                  </option>
                ))}
              </HTMLSelect>
              {d.value === 'custom' ? <InputGroup value={d.value2 ?? ''} placeholder="${year}" aria-label={t('自定义变量')} onChange={(e) => setLevel(i, { value2: e.currentTarget.value })} /> : null}
              <Button variant="minimal" icon="trash" aria-label={t('删除')} onClick={() => setForm((s) => ({ ...s, dir_list: s.dir_list.filter((_, j) => j !== i) }))} />
            </li>
          ))}
        </ol>
        <Button size="small" icon="add" text={t('添加一级')} onClick={() => setForm((s) => ({ ...s, dir_list: [...s.dir_list, { value: 'album' }] }))} />
      </FormGroup>
      <Switch checked={rules.is_clean_music} label={t('清理重复歌曲')} onChange={(e) => setRules({ is_clean_music: e.currentTarget.checked })} data-option="is_clean_music" />
      {rules.is_clean_music ? (
        <div className="ts-batch-rules" data-testid="clean-rules">
          <FormGroup label={t('格式优先级')} helperText={t('按勾选顺序，越靠前越优先保留')}>
            <div className="ts-batch-checks">
              {CLEAN_FORMATS.map((f) => (
                <Checkbox
                  key={f}
                  inline
                  label={f}
                  checked={rules.clean_format_priority.includes(f)}
                  onChange={(e) => setRules({ clean_format_priority: e.currentTarget.checked ? [...rules.clean_format_priority, f] : rules.clean_format_priority.filter((x) => x !== f) })}
                />
              ))}
            </div>
          </FormGroup>
          {RULES.map((r) => (
            <FormGroup key={r} label={t(RULE_TITLES[r])} inline>
              <HTMLSelect value={rules[r]} onChange={(e) => setRules({ [r]: e.currentTarget.value as Rule })} data-rule={r}>
                {RULE_OPTIONS.map((o) => (
                  <option key={o} value={o}>
                    {t(RULE_LABELS[o])}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          ))}
          <RadioGroup inline label={t('多余的歌曲')} selectedValue={rules.clean_delete_rule} onChange={(e) => setRules({ clean_delete_rule: e.currentTarget.value as 'delete' | 'move' })}>
            <Radio value="delete" label={t('删除（先移入回收站）')} />
            <Radio value="move" label={t('移动到重复文件夹')} />
          </RadioGroup>
        </div>
      ) : null}
    </ActionFrame>
  );
}
