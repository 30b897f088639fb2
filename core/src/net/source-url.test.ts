import { describe, expect, it } from 'vitest';
import { sourceUrlOverride, sourceUrlVariable } from './source-url.ts';

describe('source base URL override', () => {
  it('reads TAGSONIC_SOURCE_URL_<ID>, which wins over the settings key', () => {
    expect(sourceUrlVariable('musicbrainz')).toBe('TAGSONIC_SOURCE_URL_MUSICBRAINZ');
    expect(sourceUrlVariable('lrc-api')).toBe('TAGSONIC_SOURCE_URL_LRC_API');
    const env = { TAGSONIC_SOURCE_URL_MUSICBRAINZ: 'http://127.0.0.1:9001/' };
    expect(sourceUrlOverride('musicbrainz', env, { musicbrainz: 'https://mb.example.org' })).toBe('http://127.0.0.1:9001');
    expect(sourceUrlOverride('musicbrainz', {}, { musicbrainz: 'https://mb.example.org/ws/' })).toBe('https://mb.example.org/ws');
    expect(sourceUrlOverride('musicbrainz', { TAGSONIC_SOURCE_URL_MUSICBRAINZ: '  ' }, {})).toBeNull();
    expect(sourceUrlOverride('acoustid', env)).toBeNull();
  });

  it('refuses values that are not http(s) URLs or carry credentials, naming the variable', () => {
    for (const bad of ['ftp://x', 'not a url', 'http://u:p@127.0.0.1']) {
      expect(() => sourceUrlOverride('lrcapi', { TAGSONIC_SOURCE_URL_LRCAPI: bad })).toThrowError(/TAGSONIC_SOURCE_URL_LRCAPI/);
    }
    expect(() => sourceUrlOverride('lrcapi', {}, { lrcapi: 'file:///etc' })).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL' }));
  });
});
