/**
 * 替换文本 (replaceText): replaces text in the chosen tag fields of one file per item, as literal text or as
 * regular expressions. Regular expressions run on the host's RE2 (`caps.text.replace`), linear in the text
 * whatever the pattern, and the same engine as the dialog's preview (`/apimt/preview_regex/`), so the task does
 * what the preview showed. Literal replacement goes through the same call, so both modes share one behaviour:
 * rules apply in order, each to the previous one's result.
 *
 * Writes go through `caps.tags.write` (journaled under the task: undoable from its report). A dry run reads
 * and computes only, and returns the same changes the real run makes.
 */
import { defineBatchAction, PluginError, type BatchChange, type Manifest, type TrackTags } from '@tagsonic/sdk';
import { textFieldsOf, type TextField } from './fields.ts';
import { modeOf, rulesOf } from './rules.ts';

type Grants = Manifest & { permissions: { tags: { access: 'write'; reason: string } } };

/** The dialog always sends modify_list; a caller that does not changes the names. */
const DEFAULT_FIELDS: readonly TextField[] = ['title', 'artist', 'album', 'albumartist'];

export default defineBatchAction<Grants>({
  async runItem({ item, options, dryRun }, caps) {
    const rules = rulesOf(options.replace_text_list);
    const mode = modeOf(options.replace_mode);
    const fields = textFieldsOf(options.modify_list, DEFAULT_FIELDS);
    const path = item.paths[0];
    if (!path) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no file');

    const track = await caps.tags.read({ path });
    const tags: Partial<TrackTags> = {};
    const changes: BatchChange[] = [];
    for (const field of fields) {
      const before = track[field];
      if (typeof before !== 'string' || before === '') continue;
      const { text: after } = await caps.text.replace({ text: before, rules, mode });
      if (after === before) continue;
      // A field replaced down to nothing is removed, as an emptied field is in the editor.
      tags[field] = after === '' ? null : after;
      changes.push({ path: track.path, kind: 'tags', field, before, after: after === '' ? null : after });
    }
    if (!changes.length) return { status: 'skip', reason: `nothing to replace in ${fields.join(', ')}` };
    if (!dryRun) await caps.tags.write({ path: track.path, tags });
    return { status: 'success', changes };
  },
});
