/**
 * 生成strm文件 (generateStrm, V2): one `.strm` file per selected track (the host's default expansion: one item per
 * audio file). The host's `files.writeStrm` decides the place (the track's path relative to its media folder, under
 * `save_dir`, or beside the track when save_dir is empty) and the content (the track's full path, or with is_sign
 * a signed link to the server's stream of that track, for players on other machines); the plugin passes the
 * dialog's choices and reports what was written. A dry run lists the files it would write.
 */
import { defineBatchAction, PluginError, type Manifest } from '@tagsonic/sdk';

type Grants = Manifest & { permissions: { files: { access: 'write'; reason: string } } };

export default defineBatchAction<Grants>({
  async runItem({ item, options, dryRun }, caps) {
    const path = item.paths[0];
    if (!path) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no file');
    const sign = options.is_sign === true;
    const dir = typeof options.save_dir === 'string' && options.save_dir.trim() !== '' ? options.save_dir.trim() : null;
    if (dir !== null && !dir.startsWith('/')) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'save_dir must be a full path (/…) inside the media folders');
    const origin = typeof options.origin === 'string' ? options.origin : undefined;
    const written = await caps.files.writeStrm({ path, dir, sign, origin, dryRun });
    if (written.status === 'unchanged') return { status: 'skip', reason: `${written.path} is up to date` };
    return { status: 'success', changes: [{ path: written.path, kind: 'create', before: written.before, after: written.content }] };
  },
});
