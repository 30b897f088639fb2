import { SubsonicCredentials } from '@tagsonic/core/users';
import { openRuntime } from '../runtime.ts';
import { CliError } from '../cli-error.ts';
import { readPassword } from './passwd.ts';

/**
 * `tagsonic subsonic-password USER [--clear]`: sets (or clears) the password Subsonic clients use
 * for USER. Read twice from the terminal, or once from standard input.
 */
export async function subsonicPassword(args: string[]): Promise<void> {
  const username = args.find((a) => !a.startsWith('--'));
  const clear = args.includes('--clear');
  if (!username || args.some((a) => a.startsWith('--') && a !== '--clear')) throw new CliError('usage: tagsonic subsonic-password USER [--clear]');
  const password = clear ? null : await readPassword();
  const rt = await openRuntime();
  try {
    const creds = new SubsonicCredentials(rt.store, rt.users, rt.secrets.subsonicKey);
    await creds.init();
    if (password === null) await creds.clearPassword(username);
    else await creds.setPassword(username, password);
    process.stdout.write(`Subsonic password of "${username}" ${password === null ? 'cleared' : 'set'}\n`);
  } finally {
    await rt.close();
  }
}
