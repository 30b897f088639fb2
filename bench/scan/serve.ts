/**
 * Child process of bench/scan/run.ts: opens a library store the way the gateway does, loads the
 * catalogue, serves every query a number of times and prints one JSON line with the RSS and latencies.
 *   node --expose-gc bench/scan/serve.ts <store dir> <media dir> [runs]
 */
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { queryLatencies, openLibraryAt } from './queries.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const rssMb = () => {
  gc();
  gc();
  return Math.round(process.memoryUsage().rss / 1e5) / 10;
};
/** Anonymous (heap, malloc) and file-backed (code, the store's memory map) resident memory, MB. */
const rssParts = () => {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { anonMb: Math.round(kb('RssAnon') / 100) / 10, fileMb: Math.round(kb('RssFile') / 100) / 10 };
};
const [storeDir, media, runs = '20'] = process.argv.slice(2);
const base = rssMb();
const started = performance.now();
const { library, close } = await openLibraryAt(storeDir!, media!);
await library.catalog.sync();
library.catalog.view();
const loadMs = Math.round(performance.now() - started);
const loaded = rssMb();
const latency = await queryLatencies(library, Number(runs));
const serving = rssMb();
const mem = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({
    tracks: library.catalog.tracks.size,
    albums: library.catalog.albums.size,
    artists: library.catalog.artists.size,
    loadMs,
    rssEmptyMb: base,
    rssLoadedMb: loaded,
    rssServingMb: serving,
    rssServing: rssParts(),
    heapUsedMb: Math.round(mem.heapUsed / 1e5) / 10,
    externalMb: Math.round(mem.external / 1e5) / 10,
    latency,
  })}\n`,
);
await close();
