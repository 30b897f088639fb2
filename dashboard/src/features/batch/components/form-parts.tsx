/** Small form pieces the batch drawers share: a field checklist, an ordered pick list, before → after rows. */
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox, FormGroup, InputGroup } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import type { ReplacePair } from '../lib/payloads.ts';
import { label } from '../lib/labels.ts';

/** Which fields an action may change (modify_list), in the catalogue's order. */
export function FieldChecklist({ title, fields, value, onChange, name }: { title: string; fields: readonly string[]; value: string[]; onChange: (next: string[]) => void; name: string }) {
  const t = useT();
  return (
    <FormGroup label={t(title)}>
      <div className="ts-batch-checks" data-field-list={name}>
        {fields.map((f) => (
          <Checkbox
            key={f}
            inline
            label={t(label(f))}
            data-field={f}
            checked={value.includes(f)}
            // Kept in the catalogue's order whatever the clicking order.
            onChange={(e) => onChange(e.currentTarget.checked ? fields.filter((x) => x === f || value.includes(x)) : value.filter((x) => x !== f))}
          />
        ))}
      </div>
    </FormGroup>
  );
}

/** An ordered choice from `options` (the sources' lookup order): ticked ones first, moved with the arrows. */
export function OrderedPicker({ title, options, value, onChange }: { title: string; options: readonly string[]; value: string[]; onChange: (next: string[]) => void }) {
  const t = useT();
  const rows = [...value, ...options.filter((o) => !value.includes(o))];
  const move = (i: number, by: number) => {
    const next = [...value];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    onChange(next);
  };
  return (
    <FormGroup label={t(title)} helperText={t('按顺序查找，先找到的优先')}>
      <ol className="ts-batch-order" data-testid="source-order">
        {rows.map((o) => {
          const i = value.indexOf(o);
          return (
            <li key={o} data-source={o}>
              <Checkbox checked={i >= 0} label={o} onChange={(e) => onChange(e.currentTarget.checked ? [...value, o] : value.filter((x) => x !== o))} />
              <span className="ts-grow" />
              <Button size="small" variant="minimal" icon="chevron-up" aria-label={t('上移')} disabled={i <= 0} onClick={() => move(i, -1)} />
              <Button size="small" variant="minimal" icon="chevron-down" aria-label={t('下移')} disabled={i < 0 || i >= value.length - 1} onClick={() => move(i, 1)} />
            </li>
          );
        })}
      </ol>
    </FormGroup>
  );
}

/** before → after rows, with add and remove. */
export function PairList({ value, onChange, beforeHint, afterHint }: { value: ReplacePair[]; onChange: (next: ReplacePair[]) => void; beforeHint: string; afterHint: string }) {
  const t = useT();
  const set = (i: number, patch: Partial<ReplacePair>) => onChange(value.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  return (
    <div className="ts-batch-pairs">
      {value.map((p, i) => (
        <div key={i} className="ts-batch-pair" data-pair={i}>
          <InputGroup value={p.before} placeholder={t(beforeHint)} aria-label={t(beforeHint)} onChange={(e) => set(i, { before: e.currentTarget.value })} />
          <span className="ts-muted">→</span>
          <InputGroup value={p.after} placeholder={t(afterHint)} aria-label={t(afterHint)} onChange={(e) => set(i, { after: e.currentTarget.value })} />
          <Button variant="minimal" icon="trash" aria-label={t('删除')} onClick={() => onChange(value.filter((_, j) => j !== i))} />
        </div>
      ))}
      <Button size="small" icon="add" text={t('添加一行')} onClick={() => onChange([...value, { before: '', after: '' }])} />
    </div>
  );
}
