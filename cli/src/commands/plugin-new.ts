/**
 * `tagsonic plugin new <tag-source|batch-action> <dir>`: a plugin folder that works before it is edited —
 * a manifest the strict validator accepts (with `$schema`, so an editor completes and checks it), `src/index.ts`
 * against @tagsonic/sdk, a fixture `plugin test` runs, a README and a tsconfig. The tag source calls a JSON API
 * at api.example.com whose answer shape is spelled out in the code, so the author replaces one URL and one
 * mapping; the batch action trims stray spaces from titles through the journaled tag engine.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { validateManifest, type Manifest, type PluginKind } from '@tagsonic/sdk';
import { CliError } from '../cli-error.ts';
import { MANIFEST_SCHEMA, SDK_ENTRY } from './plugin-bundle.ts';

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A plugin id from the folder's name: `My Deezer` → `my-deezer`. */
export function idFromDir(dir: string): string {
  return path.basename(path.resolve(dir)).toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^[-_]+|-+$/g, '').slice(0, 64);
}

/** The checkout (or installation) this CLI belongs to: the folder holding sdk/. */
const CHECKOUT = path.resolve(path.dirname(SDK_ENTRY), '../..');

/** `target` as the new folder should refer to it: relative inside the checkout (it moves with it), else absolute. */
function pathFrom(dir: string, target: string): string {
  const inside = !path.relative(CHECKOUT, path.resolve(dir)).startsWith('..');
  return inside ? path.relative(path.resolve(dir), target) : target;
}

/** `my-deezer` → `My Deezer`. */
const titleOf = (id: string) => id.split(/[-_]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');

/** Writes the scaffold; refuses a folder that exists and is not empty (nothing of the author's is overwritten). */
export async function newPlugin(kind: PluginKind, dir: string, options: { id?: string } = {}): Promise<{ dir: string; files: string[]; manifest: Manifest }> {
  const id = options.id ?? idFromDir(dir);
  if (!ID.test(id)) throw new CliError(`"${id}" is not a plugin id (1–64 of a-z 0-9 _ -, starting with a letter or digit); choose one with --id`);
  const existing = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e.code === 'ENOTDIR' ? new CliError(`${dir} is a file; plugin new writes into a new or empty folder only`) : e;
  });
  if (existing.length) throw new CliError(`${dir} is not empty; plugin new writes into a new or empty folder only`);

  const schema = pathFrom(dir, MANIFEST_SCHEMA);
  const sdk = pathFrom(dir, SDK_ENTRY);
  const manifest: Manifest = kind === 'tag-source' ? tagSourceManifest(id, schema) : batchActionManifest(id, schema);
  // The templates are checked by the same validator as an upload, so a scaffold never starts out invalid.
  const check = validateManifest(manifest);
  if (!check.ok) throw new Error(`internal: the ${kind} template is invalid: ${check.errors[0]!.path} ${check.errors[0]!.message}`);

  const files: Record<string, string> = {
    'manifest.json': JSON.stringify(manifest, null, 2) + '\n',
    'src/index.ts': kind === 'tag-source' ? TAG_SOURCE_CODE : BATCH_ACTION_CODE,
    'fixture.json': JSON.stringify(kind === 'tag-source' ? TAG_SOURCE_FIXTURE : BATCH_ACTION_FIXTURE, null, 2) + '\n',
    'tsconfig.json': JSON.stringify(tsconfig(sdk), null, 2) + '\n',
    'README.md': readme(kind, manifest),
  };
  await mkdir(path.join(dir, 'src'), { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text, { flag: 'wx' });
  return { dir, files: Object.keys(files), manifest };
}

function tagSourceManifest(id: string, schema: string): Manifest {
  return {
    $schema: schema,
    id,
    name: titleOf(id),
    version: '0.1.0',
    description: `Song tags and covers from ${titleOf(id)}.`,
    kind: 'tag-source',
    entry: 'index.js',
    permissions: { http: { hosts: [{ host: 'api.example.com', reason: 'Searches the catalogue for songs by title and artist.' }] } },
  };
}

function batchActionManifest(id: string, schema: string): Manifest {
  return {
    $schema: schema,
    id,
    name: titleOf(id),
    version: '0.1.0',
    description: 'Removes stray spaces around and inside the titles of the selected files.',
    kind: 'batch-action',
    entry: 'index.js',
    permissions: { tags: { access: 'write', reason: 'Reads each selected file\'s title and writes the cleaned one back (undoable).' } },
  };
}

/** Editor support only: esbuild bundles the plugin; `@tagsonic/sdk` points at the SDK of this Tagsonic. */
const tsconfig = (sdk: string) => ({
  compilerOptions: {
    target: 'es2022',
    // dom: the SDK's source uses structuredClone; the sandbox has no fetch or DOM (use caps.http).
    lib: ['es2022', 'dom'],
    module: 'preserve',
    moduleResolution: 'bundler',
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    types: [],
    paths: { '@tagsonic/sdk': [sdk] },
  },
  include: ['src'],
});

const TAG_SOURCE_FIXTURE = {
  search: { title: 'Yesterday', artist: 'The Beatles', album: 'Help!', limit: 5 },
};

const BATCH_ACTION_FIXTURE = {
  run: { paths: ['Album/01 Track.flac'], options: {}, dry_run: true },
};

const TAG_SOURCE_CODE = `/**
 * A tag source: \`search\` asks the service for songs and maps each one to a candidate. Replace the URL and
 * the mapping with your service's (and its host in manifest.json). The host scores the candidates itself.
 */
import { defineTagSource, PluginError, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };

/** The service; the administrator's base URL (TAGSONIC_SOURCE_URL_<ID> or /mod settings) wins over it. */
const DEFAULT_BASE_URL = 'https://api.example.com';

/** One song as the service answers it: GET /search?q=…&limit=… → { data: ExampleSong[] }. */
interface ExampleSong {
  id: number | string;
  title: string;
  artist?: string;
  album?: string;
  cover?: string;
  year?: string;
  track?: number;
  disc?: number;
  duration?: number;
}

/** Name the field that broke: the /mod screen shows it, and the administrator knows the site changed. */
const shapeChanged = (field: string) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', \`response shape changed: \${field}\`, { field });

const toSong = (s: ExampleSong): SearchResultSong => ({
  id: String(s.id),
  name: s.title,
  artist: s.artist ?? null,
  album: s.album ?? null,
  album_img: s.cover ?? null,
  year: s.year ?? null,
  tracknumber: s.track ?? null,
  totaltracks: null,
  discnumber: s.disc ?? null,
  totaldiscs: null,
  duration: s.duration ?? null,
  resource: manifest.id,
});

/** manifest.json's grants, so \`caps\` is typed by them: caps.http is there because http is granted. */
type Grants = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };

export default defineTagSource<Grants>({
  async search({ title, artist, limit }, caps) {
    if (!title.trim()) return [];
    const base = caps.http.baseUrl ?? DEFAULT_BASE_URL;
    // Read as text: an error page (HTML, plain text) is then reported by its status, not as "not JSON".
    const { status, body } = await caps.http.fetch({ url: \`\${base}/search\`, query: { q: [title, artist].filter(Boolean).join(' '), limit } });
    if (status !== 200) throw new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', \`The service answered HTTP \${status}.\`, { status });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw shapeChanged('(not JSON)');
    }
    const data = (parsed as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw shapeChanged('data');
    caps.log.info('search', { title, results: data.length });
    return (data as ExampleSong[]).slice(0, limit).map((s, i) => {
      if (typeof s?.title !== 'string') throw shapeChanged(\`data[\${i}].title\`);
      return toSong(s);
    });
  },
});
`;

const BATCH_ACTION_CODE = `/**
 * A batch action: Tagsonic runs \`runItem\` once per selected audio file (folders are expanded for you), as
 * one task on its workers. This one reads the file's title, removes the spaces around it and the doubled ones
 * inside, and writes it back through the host's journaled tag engine (the task's report can undo it). In a dry
 * run nothing is written: the item says what would change.
 */
import { defineBatchAction, type Manifest } from '@tagsonic/sdk';

/** manifest.json's grants, so \`caps\` is typed by them: tags with write access. */
type Grants = Manifest & { permissions: { tags: { access: 'write'; reason: string } } };

export default defineBatchAction<Grants>({
  async runItem({ item, dryRun }, caps) {
    const path = item.paths[0]!;
    const { title } = await caps.tags.read({ path });
    const cleaned = title?.replace(/\\s+/g, ' ').trim() ?? null;
    if (!title || cleaned === title) return { status: 'skip', reason: title ? 'already clean' : 'no title' };
    if (!dryRun) await caps.tags.write({ path, tags: { title: cleaned } });
    return { status: 'success', changes: [{ path, kind: 'tags', field: 'title', before: title, after: cleaned }] };
  },
});
`;

function readme(kind: PluginKind, manifest: Manifest): string {
  const id = manifest.id;
  const variable = `TAGSONIC_SOURCE_URL_${id.toUpperCase().replace(/-/g, '_')}`;
  const test = kind === 'tag-source'
    ? `tagsonic plugin test ${id} --export search      # runs fixture.json's "search" against api.example.com
${variable}=http://127.0.0.1:8080 tagsonic plugin test ${id}   # the same against a local copy of the API`
    : `tagsonic plugin test ${id} --media /path/to/music   # fixture.json's "run": its paths as a task (dry run), inside that folder`;
  return `# ${manifest.name}

A Tagsonic ${kind} plugin. \`manifest.json\` says what it is and what it may do (each grant with the reason the
administrator reads before enabling it); \`src/index.ts\` is the code, written against \`@tagsonic/sdk\`.

\`\`\`sh
${test}
tagsonic plugin pack ${id}            # → ${id}/dist/${id}-${manifest.version}.zip, uploadable on /mod
tagsonic plugin install ${id}/dist/${id}-${manifest.version}.zip --url http://localhost:8002 --user admin
\`\`\`

An uploaded plugin arrives disabled: enable it on ${kind === 'tag-source' ? '/mod' : '/actionMod'} after reading its permissions.
${kind === 'tag-source' ? `Then choose "${manifest.name}" in the editor's 刮削配置.\n` : ''}`;
}
