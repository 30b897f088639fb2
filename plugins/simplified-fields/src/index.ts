/**
 * 简繁转换 (simplifiedFields): converts the chosen tag fields of one file per item between simplified and
 * traditional Chinese with OpenCC (`caps.text.convert`, phrase-aware: 理发师 → 理髮師, not 理發師). `mode` is the
 * dialog's `sim2trad` or `trad2sim`. Writes go through `caps.tags.write` (journaled under the task: undoable);
 * a dry run returns the same changes and writes nothing.
 */
import { defineBatchAction, PluginError, type BatchChange, type JsonValue, type Manifest, type TrackTags } from '@tagsonic/sdk';
import { TEXT_FIELDS, textFieldsOf } from './fields.ts';

type Grants = Manifest & { permissions: { tags: { access: 'write'; reason: string } } };

const DIRECTIONS = { sim2trad: 's2t', trad2sim: 't2s' } as const;

function directionOf(mode: JsonValue | undefined): 's2t' | 't2s' {
  if (typeof mode === 'string' && Object.hasOwn(DIRECTIONS, mode)) return DIRECTIONS[mode as keyof typeof DIRECTIONS];
  throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'mode must be sim2trad or trad2sim');
}

export default defineBatchAction<Grants>({
  async runItem({ item, options, dryRun }, caps) {
    const direction = directionOf(options.mode);
    const fields = textFieldsOf(options.modify_list, TEXT_FIELDS);
    const path = item.paths[0];
    if (!path) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no file');

    const track = await caps.tags.read({ path });
    const tags: Partial<TrackTags> = {};
    const changes: BatchChange[] = [];
    for (const field of fields) {
      const before = track[field];
      if (typeof before !== 'string' || before === '') continue;
      const after = await caps.text.convert({ text: before, direction });
      if (after === before) continue;
      tags[field] = after;
      changes.push({ path: track.path, kind: 'tags', field, before, after });
    }
    const already = direction === 's2t' ? 'traditional' : 'simplified';
    if (!changes.length) return { status: 'skip', reason: `${fields.join(', ')}: already ${already} (or no Chinese)` };
    if (!dryRun) await caps.tags.write({ path: track.path, tags });
    return { status: 'success', changes };
  },
});
