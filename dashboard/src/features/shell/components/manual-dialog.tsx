import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import type { Role } from '../../../stores/session-store.ts';

/** The user manual; V2 gets the library and search chapters on top of V1's (§1: it differs per edition). */
export function ManualDialog({ isOpen, onClose, edition }: { isOpen: boolean; onClose: () => void; edition: Role }) {
  const t = useT();
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={`${t('使用手册')} · ${edition}`} icon="manual" style={{ width: 'min(640px, 94vw)' }}>
      <DialogBody>
        <h4>{t('文件操作台')}</h4>
        <ul>
          <li>{t('左侧是服务器上的文件夹树：单击文件夹进入，单击文件打开标签编辑器，单击图片预览。')}</li>
          <li>{t('勾选框可以单击、按住 Shift 选择一个范围，或按住鼠标拖过多个勾选框。勾选文件夹会同时勾选其中的内容。')}</li>
          <li>{t('过滤框输入 state:failed、state:success 或 state:null 按刮削状态过滤，其它文字按名称过滤。')}</li>
          <li>{t('保存后提示中的“撤销”按钮可以恢复本次修改前的标签。')}</li>
          <li>{t('标签中输入 $ 可插入变量，例如 ${artist}；留空的字段会被清除。')}</li>
        </ul>
        {edition === 'V2' ? (
          <>
            <h4>{t('V2 功能')}</h4>
            <ul>
              <li>{t('顶部的搜索可以查找艺术家、专辑和歌曲（需要管理员先为账号设置 Subsonic 密码）。')}</li>
              <li>{t('音乐库、插件管理和系统设置标签页。')}</li>
            </ul>
          </>
        ) : (
          <p className="ts-muted">{t('激活 V2 可使用音乐库、搜索、插件和系统设置。')}</p>
        )}
      </DialogBody>
      <DialogFooter actions={<Button text={t('关闭')} onClick={onClose} />} />
    </Dialog>
  );
}
