/**
 * `tagsonic plugin new|test|pack|install`: the plugin author's tools, from an empty folder to a plugin running
 * on a server. Each subcommand lives in its own plugin-<name>.ts; this file only dispatches.
 */
import { parseArgs } from 'node:util';
import { CliError } from '../cli-error.ts';
import { INSTALL_USAGE, pluginInstall } from './plugin-install.ts';
import { newPlugin } from './plugin-new.ts';
import { PACK_USAGE, pluginPack } from './plugin-pack.ts';
import { pluginTest, TEST_USAGE } from './plugin-test.ts';
import type { Io } from './plugin-io.ts';

export type { Io } from './plugin-io.ts';

const NEW_USAGE = `usage: tagsonic plugin new tag-source|batch-action DIR [--id ID]
  a new plugin folder: manifest.json, src/index.ts, fixture.json, README.md, tsconfig.json`;

export const PLUGIN_USAGE = [NEW_USAGE, TEST_USAGE, PACK_USAGE, INSTALL_USAGE].join('\n');

/** Runs a subcommand; the exit code is 1 when it failed (a failing plugin, a refused upload). */
export async function plugin(args: string[], io: Io = { out: process.stdout, err: process.stderr }): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'new':
      return pluginNew(rest, io);
    case 'test':
      return pluginTest(rest, io);
    case 'pack':
      return pluginPack(rest, io);
    case 'install':
      return pluginInstall(rest, io);
    default:
      throw new CliError(PLUGIN_USAGE);
  }
}

async function pluginNew(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { id: { type: 'string' } } });
  const [kind, dir, ...extra] = positionals;
  if ((kind !== 'tag-source' && kind !== 'batch-action') || !dir || extra.length) throw new CliError(NEW_USAGE);
  const made = await newPlugin(kind, dir, { id: values.id });
  io.out.write(made.files.map((f) => `${dir}/${f}\n`).join(''));
  io.err.write(`new ${kind} "${made.manifest.id}"; edit ${dir}/src/index.ts, then: tagsonic plugin test ${dir}\n`);
  return 0;
}
