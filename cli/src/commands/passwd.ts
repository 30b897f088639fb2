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

/**
 * A new password: asked twice on a terminal; else read from standard input as lines, one line
 * (`echo pw | …`) or the same line twice (`printf 'pw\npw\n' | …`, answering both prompts).
 */
export async function readPassword(): Promise<string> {
  return process.stdin.isTTY ? askTwice() : passwordFromLines(await readAll(process.stdin));
}

/** The password piped in `text`; the line end is not part of it, a different second line is refused. */
export function passwordFromLines(text: string): string {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) throw new CliError('no password on standard input; nothing changed');
  if (lines.length > 2) throw new CliError('standard input holds more than two lines: give the password on one line, or twice on two lines; nothing changed');
  if (lines.length === 2 && lines[0] !== lines[1]) throw new CliError('the two passwords differ; nothing changed');
  return lines[0];
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
