import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Callout } from '../../../components/ui/display.tsx';
import { FormGroup, InputGroup } from '../../../components/ui/form.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useSession } from '../../../stores/session-store.ts';
import { activate } from '../api/activate.ts';

/** Codes are minted on this server by its administrator; the admin backend explains how. */
const OBTAIN_CODE_URL = '/admin/#activation';

/** Code input, Activate and Close, a link to obtain a code; permanent users are told they already are (§2). */
export function ActivationDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const user = useSession((s) => s.user);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const permanent = user?.role === 'V2' && user.is_forever;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (code.trim() === '' || busy) return;
    setBusy(true);
    try {
      await activate(code.trim());
      // The spec reloads the page after a successful activation, so every part sees the new edition; the
      // pause leaves the success notice on screen long enough to be read.
      setTimeout(() => window.location.reload(), 1500);
    } catch {
      setBusy(false);
    }
  }

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('激活 V2 版本')} icon="key">
      <form onSubmit={submit}>
        <DialogBody>
          {permanent ? (
            <Callout intent="success" icon="tick-circle" title={t('您已是永久激活用户')}>
              {t('无需再次激活，所有 V2 功能均可使用。')}
            </Callout>
          ) : (
            <>
              {user?.role === 'V2' && user.active_until ? (
                <Callout intent="primary" className="ts-gap-bottom">
                  {t('V2 有效期至 {date}', { date: user.active_until.slice(0, 10) })}
                </Callout>
              ) : null}
              <FormGroup label={t('激活码')} labelFor="ts-activation-code" helperText={t('管理员可在服务器上运行 ./run license issue 生成激活码')}>
                <InputGroup id="ts-activation-code" name="code" autoFocus value={code} onValueChange={setCode} placeholder={t('请输入激活码')} />
              </FormGroup>
              <a href={OBTAIN_CODE_URL}>
                {t('获取激活码')}
              </a>
            </>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('关闭')} onClick={onClose} />
              {permanent ? null : <Button type="submit" intent="primary" text={t('激活')} loading={busy} disabled={code.trim() === ''} />}
            </>
          }
        />
      </form>
    </Dialog>
  );
}
