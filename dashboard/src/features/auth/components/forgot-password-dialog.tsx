import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';

/** English, like the whole login page (§1). Names the real command of this product's CLI. */
export function ForgotPasswordDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Forgot password?" icon="key">
      <DialogBody>
        <p>Passwords are never sent by e-mail. Please ask the administrator of this server to reset yours:</p>
        <ol className="ts-steps">
          <li>Open a shell inside the Tagsonic container (for example <code>docker compose exec tagsonic sh</code>).</li>
          <li>
            Run <code>tagsonic passwd admin</code> (or <code>tagsonic passwd &lt;username&gt;</code> for another account).
          </li>
          <li>Type the new password twice when asked.</li>
        </ol>
        <p>Then sign in here with the new password.</p>
      </DialogBody>
      <DialogFooter actions={<Button text="Close" onClick={onClose} />} />
    </Dialog>
  );
}
