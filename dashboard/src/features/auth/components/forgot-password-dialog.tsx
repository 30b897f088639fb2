import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';

/** English, like the whole login page (§1). Names the real command of this product's CLI. */
export function ForgotPasswordDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Forgot password?" icon="key">
      <DialogBody>
        <p>Passwords are never sent by e-mail. Please ask the administrator of this server to reset yours:</p>
        <ol className="ts-steps">
          <li>
            On the server, in the Tagsonic folder, run <code>./run passwd admin</code> (or <code>./run passwd &lt;username&gt;</code> for
            another account). With Docker Compose: <code>docker compose run --rm gateway passwd admin</code>.
          </li>
          <li>Type the new password twice when asked.</li>
        </ol>
        <p>Then sign in here with the new password.</p>
      </DialogBody>
      <DialogFooter actions={<Button text="Close" onClick={onClose} />} />
    </Dialog>
  );
}
