import { useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Spinner } from '../../../../components/ui/display.tsx';
import { InputGroup } from '../../../../components/ui/form.tsx';
import { Menu, MenuDivider, MenuItem, Popover } from '../../../../components/ui/menu.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../../components/ui/overlay.tsx';
import { SECONDS } from '../../../../lib/constants.ts';
import { useT } from '../../../../lib/i18n.ts';
import { notifyError, notifySuccess, notifyWarning } from '../../../../lib/notify.ts';
import { addToPlaylist } from '../../api/add-to-playlist.ts';
import { createPlaylist } from '../../api/create-playlist.ts';
import { getPlaylists } from '../../api/get-playlists.ts';
import type { PlaylistSummary } from '../../api/playlist-types.ts';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A track row's "add to playlist" (the track table's actions slot): a menu of the user's own playlists that
 * take hand edits (not dynamic, not someone else's), loaded when it opens, and 新建歌单 for a new one with
 * this song. '添加成功！' / '添加失败！' with the server's message.
 */
export function AddToPlaylistButton({ songId, exceptId }: { songId: string; exceptId?: string }) {
  const t = useT();
  const [lists, setLists] = useState<PlaylistSummary[] | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');

  const load = async () => {
    try {
      setLists((await getPlaylists('a-z')).filter((p) => !p.readonly && !p.isDynamic && p.id !== exceptId));
    } catch (e) {
      setLists([]);
      notifyError(t('查询失败！'), errorText(e));
    }
  };

  const add = async (p: PlaylistSummary) => {
    try {
      await addToPlaylist(p.id, songId);
      notifySuccess(t('添加成功！'), p.name, SECONDS.two);
    } catch (e) {
      notifyError(t('添加失败！'), errorText(e));
    }
  };

  const create = async () => {
    if (!name.trim()) {
      notifyWarning('warning!', t('播放列表名称不能为空！'), SECONDS.three);
      return;
    }
    try {
      const p = await createPlaylist(name, songId);
      notifySuccess(t('添加成功！'), p.name, SECONDS.two);
      setNaming(false);
      setName('');
    } catch (e) {
      notifyError(t('创建失败！'), errorText(e));
    }
  };

  const menu = (
    <Menu data-testid="add-to-playlist-menu">
      {lists === null ? (
        <MenuItem disabled text={<Spinner size={16} />} />
      ) : (
        lists.map((p) => <MenuItem key={p.id} icon="properties" text={p.name} label={String(p.songCount)} data-playlist={p.id} onClick={() => void add(p)} />)
      )}
      {lists?.length ? <MenuDivider /> : null}
      <MenuItem icon="add" text={t('新建歌单')} data-testid="add-to-new-playlist" onClick={() => setNaming(true)} />
    </Menu>
  );

  return (
    <>
      <Popover content={menu} placement="bottom-end" onOpening={() => void load()}>
        <Button variant="minimal" size="small" icon="add-to-folder" title={t('添加到歌单')} aria-label={t('添加到歌单')} data-action="add-to-playlist" />
      </Popover>
      <Dialog isOpen={naming} onClose={() => setNaming(false)} title={t('新建歌单')} icon="properties">
        <DialogBody>
          <InputGroup autoFocus aria-label={t('歌单名称')} placeholder={t('请输入歌单名称')} value={name} data-testid="new-playlist-name" onChange={(e) => setName(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && void create()} />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('取消')} onClick={() => setNaming(false)} />
              <Button intent="primary" text={t('创建')} data-testid="new-playlist-create" onClick={() => void create()} />
            </>
          }
        />
      </Dialog>
    </>
  );
}
