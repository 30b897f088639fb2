import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/display.tsx';
import { FormGroup, InputGroup } from '../../../components/ui/form.tsx';
import { login } from '../api/login.ts';
import { ForgotPasswordDialog } from './forgot-password-dialog.tsx';

/** The sign-in screen, shown alone and in English (§1, §2). Enter in either field submits. */
export function LoginPage({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [, navigate] = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);

  const missingUser = touched && username.trim() === '';
  const missingPassword = touched && password === '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (username.trim() === '' || password === '' || busy) return;
    setBusy(true);
    try {
      await login({ username: username.trim(), password });
      await onSignedIn();
      navigate('/', { replace: true });
    } catch {
      // The client has shown 登录失败！ with the server's reason.
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="ts-login" lang="en">
      <Card className="ts-login-card" elevation={2}>
        <div className="ts-login-brand">
          <span className="ts-logo" aria-hidden="true">♪</span>
          <div>
            <h1>Tagsonic</h1>
            <p className="ts-muted">Sign in to your music library</p>
          </div>
        </div>
        <form onSubmit={submit} noValidate aria-label="Sign in">
          <FormGroup label="Username" labelFor="ts-username" intent={missingUser ? 'danger' : 'none'} helperText={missingUser ? 'Please enter your username' : undefined}>
            <InputGroup id="ts-username" name="username" autoComplete="username" autoFocus size="large" leftIcon="user" value={username} onValueChange={setUsername} intent={missingUser ? 'danger' : 'none'} />
          </FormGroup>
          <FormGroup label="Password" labelFor="ts-password" intent={missingPassword ? 'danger' : 'none'} helperText={missingPassword ? 'Please enter your password' : undefined}>
            <InputGroup id="ts-password" name="password" type="password" autoComplete="current-password" size="large" leftIcon="lock" value={password} onValueChange={setPassword} intent={missingPassword ? 'danger' : 'none'} />
          </FormGroup>
          <div className="ts-login-row">
            <button type="button" className="ts-link" onClick={() => setForgotOpen(true)}>
              Forgot password?
            </button>
          </div>
          <Button type="submit" intent="primary" size="large" fill loading={busy} text="Sign in" />
        </form>
        <p className="ts-login-foot ts-muted">Not a member? Please contact the administrator</p>
      </Card>
      <ForgotPasswordDialog isOpen={forgotOpen} onClose={() => setForgotOpen(false)} />
    </div>
  );
}
