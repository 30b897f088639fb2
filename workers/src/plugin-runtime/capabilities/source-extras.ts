/**
 * `sources.lyrics`, `sources.cover` and `sources.artist` (the `sources` grant): what a scraping batch action
 * (auto-scrape, auto-artist) needs of a candidate besides its tags, and an artist looked up by name. The lyrics come from the candidate's own source (its `lyrics` export, run by the
 * worker's pool with that source's grants, normalised like the editor's fetch_lyric), and the cover picture is
 * downloaded by the host (core/tags/cover-download: public addresses only, the sources' own base URLs excepted, a
 * size cap, a picture check), since a batch action has no http grant and must not get a generic one.
 */
import type { PluginHostServices } from '../host-services.ts';
import type { HostFunction } from '../../plugin-host/index.ts';
import { denied, failed, invalidArgument, optionsOf, stringField } from './args.ts';

export function sourceExtrasCapability(ids: readonly string[], host: Pick<PluginHostServices, 'sourceLyrics' | 'downloadCover' | 'sourceArtist'>): Record<string, HostFunction> {
  const granted = new Set(ids);
  const sourceOf = (options: Record<string, unknown>, what: string) => {
    const id = stringField(options, 'id', what, 64);
    if (!granted.has(id)) throw denied(`${what}: the manifest does not grant the source ${JSON.stringify(id)}`);
    return id;
  };
  return {
    lyrics: async (args) => {
      const options = optionsOf(args, 'sources.lyrics');
      const id = sourceOf(options, 'sources.lyrics');
      const songId = options.songId;
      if ((typeof songId !== 'string' && typeof songId !== 'number') || String(songId).length === 0 || String(songId).length > 200) {
        throw invalidArgument('sources.lyrics: songId must be the candidate\'s id');
      }
      if (!host.sourceLyrics) throw failed('sources.lyrics: this host cannot ask sources for lyrics');
      return host.sourceLyrics(id, String(songId));
    },
    cover: async (args) => {
      const options = optionsOf(args, 'sources.cover');
      const id = sourceOf(options, 'sources.cover');
      const url = stringField(options, 'url', 'sources.cover', 2000);
      if (!/^https?:\/\//i.test(url)) throw invalidArgument('sources.cover: url must be an http(s) URL');
      if (!host.downloadCover) throw failed('sources.cover: this host cannot download covers');
      return host.downloadCover(id, url);
    },
    artist: async (args) => {
      const options = optionsOf(args, 'sources.artist');
      const id = sourceOf(options, 'sources.artist');
      const keyword = stringField(options, 'keyword', 'sources.artist', 200).trim();
      if (!keyword) throw invalidArgument('sources.artist: keyword must name an artist');
      if (!host.sourceArtist) throw failed('sources.artist: this host cannot ask sources for artists');
      return host.sourceArtist(id, keyword);
    },
  };
}
