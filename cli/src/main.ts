#!/usr/bin/env node
import { isTagsonicError } from '@tagsonic/core/errors';
import { CliError } from './cli-error.ts';
import { start } from './commands/start.ts';
import { tags } from './commands/tags.ts';
import { passwd } from './commands/passwd.ts';
import { license } from './commands/license.ts';
import { subsonicPassword } from './commands/subsonic-password.ts';
import { apikey } from './commands/apikey.ts';
import { plugin } from './commands/plugin.ts';

const HELP = `tagsonic — self-hosted music library manager

  tagsonic start            gateway + worker in one process (embedded store and bus unless
                            TAGSONIC_MONGODB_URL / TAGSONIC_NATS_URL are set)
  tagsonic gateway          HTTP gateway only (distributed mode)
  tagsonic worker           command worker only (distributed mode)
  tagsonic tags show|set|undo …   read, write and undo tags with the product's engine and journal
  tagsonic passwd USER      set a user's password
  tagsonic subsonic-password USER [--clear]
                            set (or clear) the password Subsonic clients use for USER
  tagsonic apikey create|list|revoke USER [ID] [--name NAME]
                            create (printed once), list or revoke USER's Subsonic API keys
  tagsonic license issue [--forever] [--days N]
                            print a V2 activation code for the installation in TAGSONIC_HOME
  tagsonic plugin new|test|pack|install …
                            write a plugin: scaffold, run it in the sandbox, package it, upload it

In a checkout run these as ./run <command> (e.g. ./run passwd admin).

Configuration is by environment variables; see README.md.`;

async function main(argv: string[]): Promise<void> {
  const [cmd, ...args] = argv;
  switch (cmd) {
    case 'start':
      return start({ gateway: true, worker: true });
    case 'gateway':
      return start({ gateway: true, worker: false });
    case 'worker':
      return start({ gateway: false, worker: true });
    case 'tags':
      return tags(args);
    case 'passwd':
      return passwd(args);
    case 'subsonic-password':
      return subsonicPassword(args);
    case 'apikey':
      return apikey(args);
    case 'license':
      return license(args);
    case 'plugin':
      process.exitCode = await plugin(args);
      return;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(HELP + '\n');
      return;
    default:
      throw new CliError(`unknown command "${cmd}"\n\n${HELP}`);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof CliError) {
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
  if (isTagsonicError(e)) {
    process.stderr.write(`tagsonic: ${e.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`tagsonic: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
