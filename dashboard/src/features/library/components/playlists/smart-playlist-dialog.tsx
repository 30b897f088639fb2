import { useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Tag } from '../../../../components/ui/display.tsx';
import { FormGroup, HTMLSelect, InputGroup, Switch } from '../../../../components/ui/form.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../../components/ui/overlay.tsx';
import { SECONDS } from '../../../../lib/constants.ts';
import { useT } from '../../../../lib/i18n.ts';
import { notifyError, notifySuccess, notifyWarning } from '../../../../lib/notify.ts';
import { createSmartPlaylist } from '../../api/create-smart-playlist.ts';
import type { PlaylistDetail } from '../../api/playlist-types.ts';
import {
  addCondition,
  addGroup,
  canRemoveCondition,
  canRemoveGroup,
  CONDITION_KEYS,
  conditionsJson,
  formProblem,
  keyOf,
  LIMIT_UNIT,
  newForm,
  OPERATORS,
  ORDER_OPTIONS,
  removeCondition,
  removeGroup,
  updateCondition,
  type ConditionGroups,
  type SmartForm,
} from '../../lib/smart-conditions.ts';

/**
 * The create-smart-playlist dialog of the playlists page (spec §2, §5, §9): a name, OR-ed groups of AND-ed
 * sub-conditions, a free-text limit, the select standard and the dynamic switch, sent as /rest createPlaylist's
 * AI form. The server checks the rule again (its message is shown on failure).
 */
export function SmartPlaylistDialog({ isOpen, onClose, onCreated }: { isOpen: boolean; onClose: () => void; onCreated: (p: PlaylistDetail) => void }) {
  const t = useT();
  const [form, setForm] = useState<SmartForm>(newForm);
  const [sending, setSending] = useState(false);
  const setGroups = (groups: ConditionGroups) => setForm((f) => ({ ...f, groups }));

  const send = async () => {
    const problem = formProblem(form);
    if (problem) {
      notifyWarning(problem.title, t(problem.message), SECONDS.three);
      return;
    }
    setSending(true);
    try {
      const created = await createSmartPlaylist({ name: form.name, conditions: conditionsJson(form.groups), limit: form.limit, orderBy: form.orderBy, isDynamic: form.isDynamic });
      notifySuccess(t('创建成功！'), undefined, SECONDS.two);
      setForm(newForm());
      onCreated(created);
    } catch (e) {
      notifyError(t('创建失败！'), e instanceof Error ? e.message : t('创建失败'));
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('创建智能歌单')} icon="predictive-analysis" className="ts-smart-dialog">
      <DialogBody>
        <div data-testid="smart-playlist-dialog">
          <FormGroup label={t('歌单名称')} labelFor="ts-smart-name" labelInfo="*">
            <InputGroup id="ts-smart-name" value={form.name} onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))} placeholder={t('请输入歌单名称')} />
          </FormGroup>
          <div className="ts-smart-groups">
            {form.groups.map((group, g) => (
              <div key={g} className="ts-smart-group" data-testid="smart-group">
                <div className="ts-smart-group-head">
                  {g > 0 ? <Tag minimal intent="primary">{t('或')}</Tag> : null}
                  <span className="ts-smart-group-title">{t('条件组 {n}', { n: g + 1 })}</span>
                  <Button
                    variant="minimal"
                    size="small"
                    icon="trash"
                    intent="danger"
                    title={t('删除条件组')}
                    aria-label={t('删除条件组')}
                    disabled={!canRemoveGroup(form.groups)}
                    data-testid="smart-remove-group"
                    onClick={() => setGroups(removeGroup(form.groups, g))}
                  />
                </div>
                {group.map((cond, c) => {
                  const spec = keyOf(cond.key);
                  return (
                    <div key={c} className="ts-smart-row" data-testid="smart-condition">
                      {c > 0 ? <span className="ts-smart-and">{t('且')}</span> : null}
                      <HTMLSelect aria-label={t('条件')} value={cond.key} data-field="key" onChange={(e) => setGroups(updateCondition(form.groups, g, c, { key: e.target.value }))}>
                        {CONDITION_KEYS.map((k) => (
                          <option key={k.key} value={k.key}>
                            {t(k.label)}
                          </option>
                        ))}
                      </HTMLSelect>
                      <HTMLSelect aria-label={t('运算')} value={cond.operate} data-field="operate" onChange={(e) => setGroups(updateCondition(form.groups, g, c, { operate: e.target.value }))}>
                        {OPERATORS[spec.kind].map((o) => (
                          <option key={o.op} value={o.op}>
                            {t(o.label)}
                          </option>
                        ))}
                      </HTMLSelect>
                      {spec.kind === 'bool' ? null : (
                        <InputGroup
                          className="ts-smart-value"
                          aria-label={t('值')}
                          data-field="value"
                          value={cond.value}
                          inputMode={spec.kind === 'number' ? 'decimal' : undefined}
                          rightElement={spec.unit ? <span className="ts-smart-unit">{spec.unit}</span> : undefined}
                          onChange={(e) => setGroups(updateCondition(form.groups, g, c, { value: e.target.value }))}
                        />
                      )}
                      <Button
                        variant="minimal"
                        size="small"
                        icon="cross"
                        title={t('删除条件')}
                        aria-label={t('删除条件')}
                        disabled={!canRemoveCondition(group)}
                        onClick={() => setGroups(removeCondition(form.groups, g, c))}
                      />
                    </div>
                  );
                })}
                <Button variant="minimal" size="small" icon="add" text={t('添加子条件')} data-testid="smart-add-condition" onClick={() => setGroups(addCondition(form.groups, g))} />
              </div>
            ))}
            <Button icon="add-to-artifact" text={t('添加条件组')} data-testid="smart-add-group" onClick={() => setGroups(addGroup(form.groups))} />
          </div>
          <div className="ts-smart-options">
            <FormGroup label={t('数量上限')} labelFor="ts-smart-limit" inline>
              <InputGroup id="ts-smart-limit" value={form.limit} onChange={(e) => setForm((f) => ({ ...f, limit: e.target.value }))} rightElement={<span className="ts-smart-unit">{LIMIT_UNIT}</span>} />
            </FormGroup>
            <FormGroup label={t('选择标准')} labelFor="ts-smart-order" inline>
              <HTMLSelect id="ts-smart-order" value={form.orderBy} onChange={(e) => setForm((f) => ({ ...f, orderBy: e.target.value }))}>
                {ORDER_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {t(o.label)}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
            <Switch
              checked={form.isDynamic}
              label={t('动态歌单（每次打开时重新筛选）')}
              data-testid="smart-dynamic"
              onChange={(e) => setForm((f) => ({ ...f, isDynamic: (e.target as HTMLInputElement).checked }))}
            />
          </div>
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="primary" text={t('创建')} loading={sending} data-testid="smart-create" onClick={() => void send()} />
          </>
        }
      />
    </Dialog>
  );
}
