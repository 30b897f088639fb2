/**
 * A batch action (an example of one written outside Tagsonic): removes the words video sites add to song
 * titles — `(Official Video)`, `[Official Music Video]`, `(Lyric Video)`, `(Official Audio)`, `(HD)`,
 * `(Visualizer)` … — from the selected files, and from the audio files inside selected folders.
 *
 * It exports only `runItem`: Tagsonic expands the selection (folders walked, one item per audio file) and runs
 * each file as one item of a task, on the workers, in parallel. Titles are written through `caps.tags.write`,
 * the host's journaled tag engine, bound to the task: the task's report lists each change and can undo them
 * all. Only bracketed junk is removed, so a song really called "Video Killed the Radio Star" keeps its name.
 * In a dry run nothing is written and the item says what would change.
 */
import { defineBatchAction, type Manifest } from '@tagsonic/sdk';

/** manifest.json's grants, so `caps` is typed by them: tags read+write. */
type Grants = Manifest & { permissions: { tags: { access: 'write'; reason: string } } };

/**
 * One bracketed group, `(…)` or `[…]`, whose whole content is junk, in any case: an optional "official", an
 * optional "music" or "lyric(s)", then video, audio, visualizer, HD, HQ, 4K or MV. A group with anything else in
 * it — "(Remastered 2011)", "(Live Video Edit)" — is kept: it may be part of the song's name.
 */
const JUNK = /\s*[([]\s*(?:official\s+)?(?:(?:music|lyrics?)\s+)?(?:video|audio|visuali[sz]er|hd|hq|4k|mv)\s*[)\]]/gi;

/** The title without its junk groups and the spaces they leave; unchanged when there are none. */
function stripJunk(title: string): string {
  return title.replace(JUNK, '').replace(/\s{2,}/g, ' ').trim();
}

export default defineBatchAction<Grants>({
  async runItem({ item, dryRun }, caps) {
    const path = item.paths[0]!;
    const { title } = await caps.tags.read({ path });
    if (!title) return { status: 'skip', reason: 'no title' };
    const cleaned = stripJunk(title);
    if (cleaned === title) return { status: 'skip', reason: 'nothing to strip' };
    if (!cleaned) return { status: 'skip', reason: `"${title}" would become empty` };
    if (!dryRun) await caps.tags.write({ path, tags: { title: cleaned } });
    return { status: 'success', changes: [{ path, kind: 'tags', field: 'title', before: title, after: cleaned }] };
  },
});
