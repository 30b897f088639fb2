/**
 * 拆分文本 (splitFilename): fills tag fields from a text of each file — its name, its title or its lyrics —
 * with the user's patterns, whose named groups are the fields (`(?<artist>.+?) - (?<title>.+)`). Patterns run on
 * the host's RE2 (`caps.text.match`: linear time, the dialog preview's engine); the first that matches wins.
 * Group values are trimmed; empty ones are ignored; number fields take digits only (`03` → 3). Writes go
 * through `caps.tags.write` (journaled under the task: undoable); a dry run returns the same changes.
 */
import { defineBatchAction, PluginError, type BatchChange, type Manifest, type TrackTags } from '@tagsonic/sdk';
import { extractFieldOf, fileStem, NUMBER_FIELDS, rulesOf, type GroupField } from './rules.ts';

type Grants = Manifest & { permissions: { tags: { access: 'write'; reason: string } } };

export default defineBatchAction<Grants>({
  async runItem({ item, options, dryRun }, caps) {
    const patterns = rulesOf(options.rule_list);
    const source = extractFieldOf(options.extract_field);
    const path = item.paths[0];
    if (!path) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no file');

    const track = await caps.tags.read({ path });
    const text = source === 'filename' ? fileStem(track.path) : (track[source] ?? '');
    if (!text) return { status: 'skip', reason: `the ${source} is empty` };
    const match = await caps.text.match({ text, patterns });
    if (!match) return { status: 'skip', reason: `no rule matches the ${source} "${text.length > 80 ? `${text.slice(0, 80)}…` : text}"` };

    const tags: Partial<Record<GroupField, string | number>> = {};
    const changes: BatchChange[] = [];
    const ignored: string[] = [];
    for (const [field, raw] of Object.entries(match.groups) as Array<[GroupField, string]>) {
      const value = raw.trim();
      if (!value) continue;
      const before = track[field];
      let after: string | number = value;
      if (NUMBER_FIELDS.has(field)) {
        if (!/^\d{1,6}$/.test(value)) {
          ignored.push(`${field} "${value}" is not a number`);
          continue;
        }
        after = Number(value);
      }
      if (after === before) continue;
      tags[field] = after;
      changes.push({ path: track.path, kind: 'tags', field, before: before === null ? null : String(before), after: String(after) });
    }
    if (!changes.length) return { status: 'skip', reason: ignored.length ? ignored.join('; ') : `rule ${match.index + 1} matched; the tags already hold its values` };
    if (!dryRun) await caps.tags.write({ path: track.path, tags: tags as Partial<TrackTags> });
    return { status: 'success', changes, ...(ignored.length ? { reason: ignored.join('; ') } : {}), report: { rule: match.index } };
  },
});
