import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox, FormGroup, HTMLSelect } from '../../../components/ui/form.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { getSources } from '../api/get-sources.ts';
import { rememberSources } from '../hooks/use-source-name.ts';
import type { SourceInfo } from '../api/types.ts';
import { sourceOptions } from '../lib/source-options.ts';
import { ALL_FIELDS, FIELD_LABELS, type EditorField } from '../lib/fields.ts';
import { useTagSettings } from '../stores/tag-settings-store.ts';

/**
 * 刮削配置: the tag source (single) and which fields the editor shows, in which order; confirm or cancel
 * (§2). The sources are the installed, enabled ones (get_sources), asked at each opening; the built-in
 * list stands in only until they arrive (or if the server cannot say).
 */
export function TagSettingsDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const { resource, showFields, save } = useTagSettings();
  const [source, setSource] = useState(resource);
  const [order, setOrder] = useState<EditorField[]>([]);
  const [shown, setShown] = useState<Set<EditorField>>(new Set());
  const [sources, setSources] = useState<SourceInfo[] | null>(null);

  useEffect(() => {
    if (!isOpen) return;
    const controller = new AbortController();
    getSources(controller.signal)
      .then((list) => {
        rememberSources(list);
        setSources(list.filter((s) => s.enabled));
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [isOpen]);

  // Each opening starts from what is saved; cancel discards.
  useEffect(() => {
    if (!isOpen) return;
    setSource(resource);
    setOrder([...showFields, ...ALL_FIELDS.filter((f) => !showFields.includes(f))]);
    setShown(new Set(showFields));
  }, [isOpen, resource, showFields]);

  const move = (i: number, by: number) => {
    const j = i + by;
    if (j < 0 || j >= order.length) return;
    const next = [...order];
    [next[i], next[j]] = [next[j], next[i]];
    setOrder(next);
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('刮削配置')} icon="settings">
      <DialogBody>
        <FormGroup label={t('标签来源')} labelFor="ts-resource">
          <HTMLSelect id="ts-resource" value={source} onChange={(e) => setSource(e.currentTarget.value)} options={sourceOptions(sources, source, t('未启用'))} fill />
        </FormGroup>
        <FormGroup label={t('显示的字段与顺序')}>
          <ol className="ts-field-order">
            {order.map((f, i) => (
              <li key={f} data-field={f}>
                <Checkbox
                  checked={shown.has(f)}
                  label={t(FIELD_LABELS[f])}
                  onChange={(e) => {
                    const next = new Set(shown);
                    if (e.currentTarget.checked) next.add(f);
                    else next.delete(f);
                    setShown(next);
                  }}
                />
                <span className="ts-grow" />
                <Button size="small" variant="minimal" icon="chevron-up" aria-label={t('上移')} disabled={i === 0} onClick={() => move(i, -1)} />
                <Button size="small" variant="minimal" icon="chevron-down" aria-label={t('下移')} disabled={i === order.length - 1} onClick={() => move(i, 1)} />
              </li>
            ))}
          </ol>
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button
              intent="primary"
              text={t('确定')}
              disabled={shown.size === 0}
              onClick={() => {
                save(source, order.filter((f) => shown.has(f)));
                onClose();
              }}
            />
          </>
        }
      />
    </Dialog>
  );
}
