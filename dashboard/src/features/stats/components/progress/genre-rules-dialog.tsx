import { useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Checkbox, FormGroup, HTMLSelect, InputGroup, Switch } from '../../../../components/ui/form.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../../components/ui/overlay.tsx';
import { PRESET_GENRES } from '../../../../lib/constants.ts';
import { useT } from '../../../../lib/i18n.ts';
import { useStartTask } from '../../hooks/use-start-task.ts';
import { genreRulesDefaults, genreRulesPayload, type ArtistRule, type GenreRulesForm } from '../../lib/missing-task.ts';

/** A genre: one of the preset genres (spec doc 2 §3), or typed in. */
function GenreInput({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const t = useT();
  const custom = value !== '' && !(PRESET_GENRES as readonly string[]).includes(value);
  return (
    <InputGroup
      value={value}
      placeholder={t('流派|字段')}
      aria-label={t('流派|字段')}
      onChange={(e) => onChange(e.currentTarget.value)}
      rightElement={
        <HTMLSelect minimal value={custom ? '' : value} aria-label={t('预设流派')} onChange={(e) => onChange(e.currentTarget.value)} options={[{ value: '', label: t('预设') }, ...PRESET_GENRES.map((g) => ({ value: g, label: g }))]} />
      }
    />
  );
}

/**
 * 流派规则 for the tracks missing a genre (POST /apimt/rule_tag/): artist → genre rules, the album's majority genre,
 * the language model. 创建成功！ with 任务在后台努力运行中 (spec doc 2 §8 "Genre rule task").
 */
export function GenreRulesDialog({ isOpen, onClose, onCreated }: { isOpen: boolean; onClose: () => void; onCreated: (taskId: string | null) => void }) {
  const t = useT();
  const [form, setForm] = useState<GenreRulesForm>(genreRulesDefaults);
  const { busy, submit } = useStartTask('rule_tag', onCreated, onClose);
  const setRule = (i: number, p: Partial<ArtistRule>) => setForm((f) => ({ ...f, artistRules: f.artistRules.map((r, j) => (j === i ? { ...r, ...p } : r)) }));

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('流派规则')} icon="tag" className="ts-progress-dialog">
      <DialogBody>
        <div data-testid="genre-rules-form">
          <FormGroup label={t('艺术家规则')} helperText={t('该艺术家的歌曲缺少流派时，填入对应流派')}>
            {form.artistRules.map((r, i) => (
              <div key={i} className="ts-genre-rule" data-rule={i}>
                <InputGroup value={r.artist} placeholder={t('艺术家|字段')} aria-label={t('艺术家|字段')} onChange={(e) => setRule(i, { artist: e.currentTarget.value })} />
                <GenreInput value={r.genre} onChange={(genre) => setRule(i, { genre })} />
                <Button variant="minimal" icon="trash" aria-label={t('删除')} onClick={() => setForm((f) => ({ ...f, artistRules: f.artistRules.filter((_, j) => j !== i) }))} />
              </div>
            ))}
            <Button size="small" icon="add" text={t('添加规则')} onClick={() => setForm((f) => ({ ...f, artistRules: [...f.artistRules, { artist: '', genre: '' }] }))} />
          </FormGroup>
          <Checkbox checked={form.useAlbumMajorityGenre} label={t('使用同专辑多数歌曲的流派')} onChange={(e) => setForm((f) => ({ ...f, useAlbumMajorityGenre: e.currentTarget.checked }))} />
          <Switch checked={form.useAI} label={t('使用 AI 推断流派')} onChange={(e) => setForm((f) => ({ ...f, useAI: e.currentTarget.checked }))} />
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="primary" text={t('确定')} loading={busy} onClick={() => void submit(genreRulesPayload(form))} data-testid="genre-rules-submit" />
          </>
        }
      />
    </Dialog>
  );
}
