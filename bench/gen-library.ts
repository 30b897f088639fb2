/**
 * Generates a test library and prints how long it took and what it holds.
 *   node bench/gen-library.ts <dir> [--size N|small] [--seed S] [--duration SEC] [--formats mp3,flac,...]
 * A folder that already holds a library made with the same options is reused as is.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AUDIO_FORMATS, generateLibrary, MANIFEST_FILE, type AudioFormat } from '@tagsonic/test/library';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    size: { type: 'string', default: 'small' },
    seed: { type: 'string', default: '1' },
    duration: { type: 'string' },
    formats: { type: 'string' },
  },
});

const root = positionals[0];
if (root === undefined) {
  console.error(`usage: node bench/gen-library.ts <dir> [--size N|small] [--seed S] [--duration SEC] [--formats ${AUDIO_FORMATS.join(',')}]`);
  process.exit(2);
}

const manifestTime = () => stat(join(root, MANIFEST_FILE)).then((s) => s.mtimeMs, () => undefined);
const before = await manifestTime();
const started = performance.now();
const manifest = await generateLibrary({
  root,
  size: values.size === 'small' ? 'small' : Number(values.size),
  seed: Number(values.seed),
  durationSec: values.duration === undefined ? undefined : Number(values.duration),
  formats: values.formats === undefined ? undefined : (values.formats.split(',') as AudioFormat[]),
});
const seconds = (performance.now() - started) / 1000;
const audio = manifest.counts.byKind.audio;

console.log(`library: ${manifest.root}`);
const reused = before !== undefined && before === (await manifestTime());
console.log(
  reused
    ? `time: ${seconds.toFixed(2)} s (reused the library already there; delete the folder to measure generation)`
    : `time: ${seconds.toFixed(2)} s to generate (${audio} audio files, ${(audio / seconds).toFixed(0)} audio files/s)`,
);
console.log(`counts: ${JSON.stringify(manifest.counts, null, 2)}`);
