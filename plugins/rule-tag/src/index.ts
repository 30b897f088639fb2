/**
 * 流派规则 (ruleTagTask): fills in the genre of one track per item, from rules tried in order —
 *   1. an artist rule: the genre set for one of the track's artists (each artist of a multi-artist track, in tag
 *      order, compared with case, width and accents folded);
 *   2. the album majority (`useAlbumMajorityGenre`): the genre most of the album's other tracks carry in the
 *      library — the host counts them and passes the counts as the item's `data`, so no library access is needed;
 *   3. AI (`useAI`): the genre the configured language model names for the track (ai.ts).
 * The first rule that decides wins. The model failing (not configured, unreachable …) fails the item with its
 * reason; an answer that is no genre name is a miss. A track no rule decides is a `miss` whose reason says what was tried. A track
 * that has a genre by now (tagged since the library last read it) is skipped: a rule never replaces a genre.
 *
 * The genre is written through `caps.tags.write` (journaled under the task: undoable from its report); a dry run
 * returns the same change without writing.
 */
import { defineBatchAction, PluginError, type BatchChange, type JsonValue, type Manifest } from '@tagsonic/sdk';
import { albumMajority, artistRule, parseRuleForm, trackData } from './rules.ts';
import { askGenre } from './ai.ts';

type Grants = Manifest & { permissions: { tags: { access: 'write'; reason: string }; llm: { reason: string } } };

/** Which rule decided, as the report names it. */
type Decided = { rule: 'artist' | 'album' | 'ai'; genre: string; note: string };

export default defineBatchAction<Grants>({
  async runItem({ item, options, dryRun, preview }, caps) {
    const form = parseRuleForm(options);
    const path = item.paths[0];
    if (!path) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no file');
    const track = await caps.tags.read({ path });
    const raw: Record<string, JsonValue> = { title: track.title, artist: track.artist, album: track.album, raw_title: track.title, raw_artist: track.artist, raw_album: track.album };
    if (track.genre?.trim()) return { status: 'skip', reason: `already has a genre (${track.genre})`, report: raw };

    const data = trackData(item.data, track.artist);
    const tried: string[] = [];
    let decided: Decided | null = null;

    const rule = form.artistRules.size ? artistRule(form, data.artists) : null;
    if (rule) decided = { rule: 'artist', genre: rule.genre, note: `artist rule: ${rule.artist} → ${rule.genre}` };
    else if (form.artistRules.size) tried.push(data.artists.length ? `no artist rule for ${data.artists.join(', ')}` : 'the track names no artist');

    if (!decided && form.albumMajority) {
      const majority = albumMajority(data.albumGenres);
      if (majority) decided = { rule: 'album', genre: majority.genre, note: `album majority: ${majority.count} other tracks of the album are ${majority.genre}` };
      else tried.push(albumMiss(data.albumGenres));
    }

    // Applying a dry run: the model's answer then is the one the preview showed, not a new question (its answers vary).
    const previewed = preview?.find((c) => c.kind === 'tags' && c.field === 'genre' && c.path === track.path && typeof c.after === 'string');
    if (!decided && form.ai && previewed) decided = { rule: 'ai', genre: previewed.after!, note: `AI (as previewed): ${previewed.after}` };

    if (!decided && form.ai) {
      let asked: Awaited<ReturnType<typeof askGenre>>;
      try {
        asked = await askGenre(caps.llm, { title: track.title, artist: track.artist, album: track.album, albumGenres: data.albumGenres });
      } catch (error) {
        // Returned, not thrown: the host retries an unavailable endpoint's error as a crash, and one item's
        // failure is the report's to show (the code lets the dashboard word it).
        const reason = error instanceof Error ? error.message : String(error);
        const code = (error as { code?: unknown } | null)?.code;
        return { status: 'fail', reason: `AI: ${reason}${tried.length ? ` (before: ${tried.join('; ')})` : ''}`, report: { ...raw, ...(typeof code === 'string' ? { error_code: code } : {}) } };
      }
      if ('genre' in asked) decided = { rule: 'ai', genre: asked.genre, note: `AI: ${asked.genre}` };
      else tried.push(asked.none);
    }

    if (!decided) return { status: 'miss', reason: `no rule decided the genre: ${tried.join('; ')}`, report: raw };

    const changes: BatchChange[] = [{ path: track.path, kind: 'tags', field: 'genre', before: null, after: decided.genre }];
    if (!dryRun) await caps.tags.write({ path: track.path, tags: { genre: decided.genre } });
    return { status: 'success', changes, report: { ...raw, genre: decided.genre, rule: decided.rule, notes: [decided.note] } };
  },
});

function albumMiss(counts: ReadonlyArray<[string, number]> | null | undefined): string {
  if (counts === undefined) return 'no album counts (the library tasks count them: POST /apimt/rule_tag/)';
  if (counts === null) return 'the track has no album';
  if (!counts.length) return 'no other track of the album has a genre';
  return `no majority among the album's other tracks (${counts.map(([g, n]) => `${g} ×${n}`).join(', ')})`;
}
