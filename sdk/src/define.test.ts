import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  defineBatchAction, defineManifest, defineTagSource, isPluginError, PluginError, validateManifest,
  type CapabilitiesFor, type ConfigValues, type FfmpegResult, type FilesCapability, type HttpCapability, type TagsCapability,
} from './index.ts';

const manifest = defineManifest({
  id: 'lrclib',
  name: 'LRCLIB',
  version: '1.0.0',
  description: 'Synced lyrics from lrclib.net.',
  kind: 'tag-source',
  entry: 'index.js',
  permissions: {
    http: { hosts: [{ host: 'lrclib.net', reason: 'Searches and downloads lyrics' }] },
    tags: { access: 'read', reason: 'Reads the title to search for' },
  },
});

describe('define helpers', () => {
  it('defineManifest keeps the literal, and the literal is a valid manifest', () => {
    expectTypeOf(manifest.kind).toEqualTypeOf<'tag-source'>();
    expect(validateManifest(manifest)).toEqual({ ok: true, manifest });
  });

  it('CapabilitiesFor grants exactly what the manifest lists', () => {
    type Caps = CapabilitiesFor<typeof manifest>;
    expectTypeOf<Caps['http']>().toEqualTypeOf<HttpCapability>();
    expectTypeOf<Caps['tags']>().toEqualTypeOf<Pick<TagsCapability, 'read' | 'render' | 'lyricsFile' | 'folderCover'>>();
    expectTypeOf<Caps>().not.toHaveProperty('files');
    expectTypeOf<Caps>().not.toHaveProperty('ffmpeg');
    type Writer = CapabilitiesFor<{ permissions: { files: { access: 'write'; reason: 'x' } } } & typeof manifest>;
    expectTypeOf<Writer['files']>().toEqualTypeOf<FilesCapability>();
    type Reader = CapabilitiesFor<{ permissions: { files: { access: 'read'; reason: 'x' } } } & typeof manifest>;
    expectTypeOf<Reader['files']>().toEqualTypeOf<Pick<FilesCapability, 'list' | 'stat' | 'hash' | 'hashMany' | 'statMany' | 'readBytes'>>();
    expectTypeOf<Caps['config']['get']>().returns.resolves.toEqualTypeOf<ConfigValues>();
    expectTypeOf<FfmpegResult<'probe'>['duration']>().toEqualTypeOf<number>();
  });

  it('defineTagSource and defineBatchAction return the plugin object itself, typed by the manifest', async () => {
    const source = defineTagSource<typeof manifest>({
      async search({ title }, caps) {
        expectTypeOf<(typeof caps)['http']>().toEqualTypeOf<HttpCapability>();
        const { market } = await caps.config.get();
        return [{ id: '1', name: title, artist: null, album: String(market), album_img: null, year: null, tracknumber: null,
          totaltracks: null, discnumber: null, totaldiscs: null, resource: 'lrclib' }];
      },
    });
    const caps = { config: { get: async () => ({ market: 'JP' }) } } as unknown as CapabilitiesFor<typeof manifest>;
    const songs = await source.search({ title: 'Yesterday', artist: '', album: '', limit: 1 }, caps);
    expect(songs.map((s) => [s.name, s.album])).toEqual([['Yesterday', 'JP']]);

    const action = { async runItem() { return { status: 'skip' as const, reason: 'nothing to do' }; } };
    expect(defineBatchAction(action)).toBe(action);
  });
});

describe('PluginError', () => {
  it('carries a code and plain details, and is recognised across realms by name and code', () => {
    const error = new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', 'response shape changed: songs', { status: 200 });
    expect([error.name, error.code, error.message, error.details]).toEqual(['PluginError', 'TAGSONIC_ERR_PLUGIN_UPSTREAM', 'response shape changed: songs', { status: 200 }]);
    expect(isPluginError(error)).toBe(true);
    // What a host rebuilds from the { code, message } that crossed the sandbox boundary.
    const rebuilt = Object.assign(new Error('denied'), { name: 'PluginError', code: 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED' });
    expect(isPluginError(rebuilt)).toBe(true);
    expect(isPluginError(Object.assign(new Error('x'), { name: 'PluginError', code: 'EACCES' }))).toBe(false);
    expect(isPluginError({ name: 'PluginError', code: 'TAGSONIC_ERR_PLUGIN_DENIED' })).toBe(false);
  });
});
