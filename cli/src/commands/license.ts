import { access } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, ensureSecrets, type Config } from '@tagsonic/core/config';
import { issueLicense, LICENSE_ERRORS, type LicensePayload } from '@tagsonic/core/license';
import { TagsonicError } from '@tagsonic/core/errors';
import { CliError } from '../cli-error.ts';

const USAGE = 'usage: tagsonic license issue [--forever] [--days N]';

/**
 * Mints an activation code with the installation's private key (data/secrets.json). A code is only good on
 * the installation whose key signed it, so a home without secrets is refused rather than given new ones:
 * that code would activate nothing, and the user would not learn they ran it in the wrong place.
 */
export async function issueLicenseCode(config: Config, options: { forever?: boolean; days?: number }): Promise<{ code: string; payload: LicensePayload }> {
  const file = path.join(config.dataDir, 'secrets.json');
  if (!(await access(file).then(() => true, () => false))) {
    throw new TagsonicError(
      'invalid',
      LICENSE_ERRORS.NO_INSTALLATION,
      `no Tagsonic installation in ${config.home} (${file} does not exist). A code only works on the server whose key ` +
        `signs it: run this with the server's home, e.g. TAGSONIC_HOME=/path/to/tagsonic-home ./run license issue`,
    );
  }
  const { secrets } = await ensureSecrets(config.dataDir);
  return issueLicense(secrets.licensePrivateKey, options);
}

/** `tagsonic license issue [--forever] [--days N]`: prints one V2 activation code for this server. */
export async function license(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'issue') throw new CliError(USAGE);
  let forever = false;
  let days: number | undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--forever') forever = true;
    else if (a === '--days') {
      const v = rest[++i];
      if (v === undefined || !/^\d+$/.test(v)) throw new CliError(`--days needs a whole number of days\n${USAGE}`);
      days = Number(v);
    } else throw new CliError(`unknown option "${a}"\n${USAGE}`);
  }
  if (forever && days !== undefined) throw new CliError(`--forever and --days exclude each other\n${USAGE}`);
  const config = loadConfig();
  const { code, payload } = await issueLicenseCode(config, { forever, days });
  const until = payload.expiresAt === null ? 'permanent' : `until ${new Date(payload.expiresAt).toISOString().slice(0, 10)}`;
  process.stderr.write(`V2 activation code (${until}), valid only on the installation in ${config.home}:\n`);
  process.stdout.write(`${code}\n`);
}
