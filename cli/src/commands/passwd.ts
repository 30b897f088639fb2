import { createInterface } from 'node:readline/promises';
import { openRuntime } from '../runtime.ts';
import { CliError } from '../cli-error.ts';

/**
 * `tagsonic passwd USER`: sets a user's password. Reads it twice from the terminal (hidden), or once
 * from standard input when it is not a terminal (`echo pw | tagsonic passwd admin`).
 */
export async function passwd(args: string[]): Promise<void> {
  const username = args[0];
  if (!username) throw new CliError('usage: tagsonic passwd USER');
  const password = await readPassword();
  const rt = await openRuntime();
  try {
    await rt.users.setPassword(username, password);
    process.stdout.write(`password of "${username}" changed\n`);
  } finally {
    await rt.close();
  }
}

/** A new password: asked twice on a terminal, else one line of standard input. */
export async function readPassword(): Promise<string> {
  return process.stdin.isTTY ? askTwice() : (await readAll(process.stdin)).replace(/\r?\n$/, '');
}

async function askTwice(): Promise<string> {
  const first = await askHidden('New password: ');
  const second = await askHidden('Repeat it: ');
  if (first !== second) throw new CliError('the two passwords differ; nothing changed');
  return first;
}

async function askHidden(prompt: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void };
  let prompted = false;
  out._writeToOutput = (s: string) => {
    if (!prompted) {
      process.stdout.write(s);
      prompted = true;
    }
  };
  try {
    return await rl.question(prompt);
  } finally {
    process.stdout.write('\n');
    rl.close();
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let s = '';
  for await (const chunk of stream) s += chunk.toString();
  return s;
}
