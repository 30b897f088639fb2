import { loadConfig, ensureSecrets, type Config } from '@tagsonic/core/config';
import { issueLicense, type LicensePayload } from '@tagsonic/core/license';
import { CliError } from '../cli-error.ts';

const USAGE = 'usage: tagsonic license issue [--forever] [--days N]';

/** Mints an activation code with the install's private key (data/secrets.json). */
export async function issueLicenseCode(config: Config, options: { forever?: boolean; days?: number }): Promise<{ code: string; payload: LicensePayload }> {
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
  const { code, payload } = await issueLicenseCode(loadConfig(), { forever, days });
  const until = payload.expiresAt === null ? 'permanent' : `until ${new Date(payload.expiresAt).toISOString().slice(0, 10)}`;
  process.stderr.write(`V2 activation code (${until}), valid on this installation only:\n`);
  process.stdout.write(`${code}\n`);
}
