/**
 * 乱码修复 (fixEncoding): repairs mojibake in the chosen tag fields of one file per item — GBK, Big5, Shift-JIS or
 * UTF-8 bytes that a reader showed as Latin-1/CP1252 — and refuses to touch text that reads correctly (see
 * ./repair.ts for the detection and the scorer). The host decodes (`caps.text.decode`: a sandbox has no
 * TextDecoder and no CJK tables). `replace_text_list` rules, if any, then apply as literal replacements to the
 * chosen fields (for what the repair cannot know, e.g. a "?" a tagger left). Writes go through
 * `caps.tags.write` (journaled under the task: undoable); a dry run returns the same changes.
 */
import { defineBatchAction, PluginError, type BatchChange, type JsonValue, type Manifest, type TextCapability, type TrackTags } from '@tagsonic/sdk';
import { TEXT_FIELDS, textFieldsOf } from './fields.ts';
import { commonSets, repairFields, type CommonSets, type Decode, type Encoding } from './repair.ts';

type Grants = Manifest & { permissions: { tags: { access: 'write'; reason: string } } };

interface Rule { before: string; after: string }

function rulesOf(value: JsonValue | undefined): Rule[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 50) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'replace_text_list must be a list of at most 50 {before, after}');
  return value.flatMap((rule, i) => {
    const { before, after } = (rule !== null && typeof rule === 'object' && !Array.isArray(rule) ? rule : {}) as Record<string, JsonValue>;
    if (typeof before !== 'string' || (after !== undefined && after !== null && typeof after !== 'string')) {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `replace_text_list[${i}] must be {before, after} with text values`);
    }
    return before === '' ? [] : [{ before, after: typeof after === 'string' ? after : '' }];
  });
}

/** Built at first need, once per sandbox context (a context may serve several items). */
let common: Promise<CommonSets> | undefined;

export default defineBatchAction<Grants>({
  async runItem({ item, options, dryRun }, caps) {
    const fields = textFieldsOf(options.modify_list, TEXT_FIELDS);
    const rules = rulesOf(options.replace_text_list);
    const path = item.paths[0];
    if (!path) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no file');

    const text: TextCapability = caps.text;
    const decode: Decode = (bytes, encoding) => text.decode({ bytes, encoding, fatal: true });
    const commonOf = () => {
      common ??= commonSets(async (bytes, encoding) => (await text.decode({ bytes, encoding })) ?? '');
      common.catch(() => (common = undefined));
      return common;
    };

    const track = await caps.tags.read({ path });
    const values: Record<string, string> = {};
    for (const field of fields) {
      const value = track[field];
      if (typeof value === 'string' && value !== '') values[field] = value;
    }
    const repairs = await repairFields(values, decode, commonOf);

    const tags: Partial<TrackTags> = {};
    const changes: BatchChange[] = [];
    const encodings: Record<string, Encoding> = {};
    for (const field of fields) {
      const before = values[field];
      if (before === undefined) continue;
      let after = repairs[field]?.text ?? before;
      if (repairs[field]) encodings[field] = repairs[field].encoding;
      if (rules.length) after = (await text.replace({ text: after, rules, mode: 'text' })).text;
      if (after === before) continue;
      tags[field] = after === '' ? null : after;
      changes.push({ path: track.path, kind: 'tags', field, before, after: after === '' ? null : after });
    }
    if (!changes.length) return { status: 'skip', reason: `${Object.keys(values).length ? Object.keys(values).join(', ') : 'the chosen fields'}: no mojibake found` };
    if (!dryRun) await caps.tags.write({ path: track.path, tags });
    return { status: 'success', changes, report: { encodings } };
  },
});
