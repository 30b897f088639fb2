/**
 * The statistics API (spec doc 2 §7 "Statistics", gateway/src/routes/stats.ts) over the real runtime and the
 * scanned small library: known plays are scrobbled through /rest `scrobble` with `time` and different `c`, then
 * every route's numbers are checked — the week by hand, month and year against a plain per-play count made with
 * the zone's wall clock. Run in two server time zones (the process TZ), one user each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackDoc } from '@tagsonic/core/library';
import { addDays, civilDateOf, daysBetween, instantOf, isoDate, isoMonth, periodRange, wallTime } from '@tagsonic/core/stats';
import { ADMIN, ALICE, ok, startSubsonic, type Auth as RestAuth, type SubsonicHarness } from './subsonic-harness.ts';
import { call, expectError, expectOk, login, type Session } from './api-harness.ts';

const ZONES = [
  { zone: 'Asia/Shanghai', user: ADMIN, rest: { u: ADMIN.username, p: ADMIN.subsonic } },
  { zone: 'America/New_York', user: ALICE, rest: { u: ALICE.username, p: ALICE.subsonic } },
] as const;

let h: SubsonicHarness;
const originalTz = process.env.TZ;

beforeAll(async () => {
  h = await startSubsonic();
}, 120_000);

afterAll(async () => {
  process.env.TZ = originalTz;
  await h?.close();
});

interface Play {
  track: TrackDoc;
  at: number;
  client: string;
}

async function scrobble(auth: RestAuth, play: Play): Promise<void> {
  await ok(h.app, 'scrobble', { id: play.track._id, time: play.at, submission: true }, { auth, base: { v: '1.16.1', c: play.client } });
}

const get = async (session: Session, url: string) => expectOk(await call(h.app, session, 'GET', url)).data;
const round2 = (n: number) => Math.round(n * 100) / 100;
const rate = (a: number, b: number) => (b === 0 ? null : Math.round(((a - b) / b) * 10_000) / 10_000);
const tally = <K>(xs: readonly K[]) => {
  const m = new Map<K, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
};

describe.each(ZONES)('statistics in $zone', ({ zone, user, rest }) => {
  let session: Session;
  let tracks: TrackDoc[];
  let plays: Play[];
  let now: number;

  beforeAll(async () => {
    process.env.TZ = zone;
    session = await login(h.app, user.username, user.password);
    await h.rt.library.catalog.sync();
    // Three tracks of different albums with a genre and a year.
    const byAlbum = new Map<string, TrackDoc>();
    for (const t of h.rt.library.catalog.view().tracks) if (t.genres.length > 0 && t.year !== null && !byAlbum.has(t.albumId)) byAlbum.set(t.albumId, t);
    tracks = [...byAlbum.values()].slice(0, 3);
    expect(tracks).toHaveLength(3);
    const [t1, t2, t3] = tracks as [TrackDoc, TrackDoc, TrackDoc];
    now = Date.now();
    const today = civilDateOf(now, zone);
    const week = periodRange('week', now, zone);
    const lastMonday = civilDateOf(week.lastStart, zone);
    const at = (d: typeof today, hour: number, minutes: number) => instantOf(d, zone, hour) + minutes * 60_000;
    plays = [
      { track: t1, at: at(today, 0, 10), client: 'Feishin' },
      { track: t1, at: at(today, 0, 20), client: 'Feishin' },
      { track: t2, at: at(today, 9, 30), client: 'DSub' },
      { track: t3, at: at(lastMonday, 10, 10), client: 'Feishin' },
      // Sunday 23:30 local, half an hour before this week.
      { track: t1, at: week.start - 30 * 60_000, client: 'DSub' },
      { track: t3, at: at(civilDateOf(periodRange('month', now, zone).lastStart, zone), 12, 0), client: 'DSub' },
      { track: t2, at: at(addDays(civilDateOf(periodRange('year', now, zone).lastStart, zone), 1), 8, 0), client: 'Sonixd' },
    ];
    for (const p of plays) await scrobble(rest, p);
  }, 60_000);

  it('week: the numbers by hand', async () => {
    const [t1, t2, t3] = tracks as [TrackDoc, TrackDoc, TrackDoc];
    const week = periodRange('week', now, zone);
    const today = isoDate(civilDateOf(now, zone));
    const days = daysBetween(week.firstDay, week.lastDay).map(isoDate);

    const record = await get(session, '/apimt/week_record/?period=week');
    expect(record).toEqual({
      date_range: `${days[0]} ~ ${days[6]}`,
      this_week_total: 3,
      last_week_total: 2,
      week_rate: 0.5,
      jocker: '比上一期听得更多，继续保持！',
      record: days.map((date) => ({ date, count: date === today ? 3 : 0 })),
    });

    const clock = await get(session, '/apimt/listening_clock/?period=week');
    expect(clock.listening_count).toBe(3);
    expect(clock.hours).toEqual(Array.from({ length: 24 }, (_, hr) => (hr === 0 ? 2 : hr === 9 ? 1 : 0)));

    expect(await get(session, '/apimt/platform_stats/?period=week')).toEqual([
      { name: 'Feishin', value: 2 },
      { name: 'DSub', value: 1 },
    ]);

    const best = await get(session, '/apimt/perfect_music/?period=week');
    const cover = (t: TrackDoc) => (t.hasArt ? t._id : t.albumId);
    expect(best.track_record).toEqual({
      count: 2,
      rate: 0, // last week: t3 and t1, two as well
      newest: [t2.title, 1, cover(t2)],
      list: [
        [t1.title, 2, cover(t1)],
        [t2.title, 1, cover(t2)],
      ],
    });
    expect(best.album_record.count).toBe(2);
    expect(best.album_record.list[0]).toEqual([h.rt.library.catalog.albums.get(t1.albumId)!.name, 2, t1.albumId]);

    const stats = await get(session, '/apimt/listening_stats/?period=week');
    const seconds = Math.round(2 * t1.duration + t2.duration);
    const lastSeconds = Math.round(t3.duration + t1.duration);
    const daysSoFar = days.indexOf(today) + 1;
    expect(stats).toEqual({
      duration: { total_seconds: seconds, formatted: `0:00:${String(seconds).padStart(2, '0')}`, last_week: lastSeconds, growth_rate: rate(seconds, lastSeconds) },
      average: { count: round2(3 / daysSoFar), last_week: round2(2 / 7), growth_rate: rate(round2(3 / daysSoFar), round2(2 / 7)) },
      most_active: { count: 3, date: today, last_week: 1, growth_rate: 2 },
    });

    const genres = await get(session, '/apimt/hot_genres/?period=week');
    expect(genres.date_list).toEqual(days);
    const expectedGenres = tally([t1, t1, t2].flatMap((t) => [...new Set(t.genres)]));
    expect(Object.fromEntries(Object.entries(genres.daily_genres).map(([g, s]) => [g, (s as number[]).reduce((a, b) => a + b, 0)]))).toEqual(
      Object.fromEntries([...expectedGenres].filter(([g]) => genres.genres.includes(g))),
    );
    expect(genres.genres.length).toBe(Math.min(5, expectedGenres.size));
  });

  for (const period of ['month', 'year'] as const) {
    it(`${period}: every route against a per-play count on the wall clock`, async () => {
      const r = periodRange(period, now, zone);
      const current = plays.filter((p) => p.at >= r.start && p.at < r.end);
      const last = plays.filter((p) => p.at >= r.lastStart && p.at < r.start);
      const dayOf = (p: Play) => isoDate(civilDateOf(p.at, zone));
      const days = daysBetween(r.firstDay, r.lastDay).map(isoDate);
      const lastDays = daysBetween(civilDateOf(r.lastStart, zone), addDays(r.firstDay, -1)).map(isoDate);

      const record = await get(session, `/apimt/week_record/?period=${period}`);
      const perDay = tally(current.map(dayOf));
      expect(record.this_week_total).toBe(current.length);
      expect(record.last_week_total).toBe(last.length);
      expect(record.week_rate).toBe(rate(current.length, last.length));
      expect(record.record).toEqual(days.map((date) => ({ date, count: perDay.get(date) ?? 0 })));

      const clock = await get(session, `/apimt/listening_clock/?period=${period}`);
      const perHour = tally(current.map((p) => wallTime(p.at, zone).hour));
      expect(clock).toEqual({ listening_count: current.length, hours: Array.from({ length: 24 }, (_, hr) => perHour.get(hr) ?? 0) });

      const platforms = await get(session, `/apimt/platform_stats/?period=${period}`);
      expect(Object.fromEntries(platforms.map((x: { name: string; value: number }) => [x.name, x.value]))).toEqual(Object.fromEntries(tally(current.map((p) => p.client))));

      const stats = await get(session, `/apimt/listening_stats/?period=${period}`);
      const seconds = Math.round(current.reduce((s, p) => s + p.track.duration, 0));
      const lastPerDay = tally(last.map(dayOf));
      const today = isoDate(civilDateOf(now, zone));
      const average = round2(current.length / (days.indexOf(today) + 1));
      const busiest = Math.max(0, ...perDay.values());
      expect(stats).toEqual({
        duration: { total_seconds: seconds, formatted: expect.any(String), last_week: Math.round(last.reduce((s, p) => s + p.track.duration, 0)), growth_rate: expect.anything() },
        average: { count: average, last_week: round2(last.length / lastDays.length), growth_rate: rate(average, round2(last.length / lastDays.length)) },
        most_active: { count: busiest, date: days.find((d) => perDay.get(d) === busiest) ?? null, last_week: Math.max(0, ...lastPerDay.values()), growth_rate: rate(busiest, Math.max(0, ...lastPerDay.values())) },
      });

      const best = await get(session, `/apimt/perfect_music/?period=${period}`);
      const perTrack = tally(current.map((p) => p.track));
      expect(best.track_record.count).toBe(perTrack.size);
      expect(best.track_record.rate).toBe(rate(perTrack.size, new Set(last.map((p) => p.track)).size));
      expect(best.track_record.list.map((x: [string, number]) => x[1])).toEqual([...perTrack.values()].sort((a, b) => b - a));

      const decades = await get(session, `/apimt/hot_decades/?period=${period}`);
      const buckets = period === 'year' ? Array.from({ length: 12 }, (_, i) => isoMonth({ year: r.firstDay.year, month: i + 1, day: 1 })) : days;
      expect(decades.date_list).toEqual(buckets);
      const bucketOfPlay = (p: Play) => (period === 'year' ? dayOf(p).slice(0, 7) : dayOf(p));
      const expectedDecades: Record<string, number[]> = {};
      for (const p of current) {
        const d = `${Math.floor(p.track.year! / 10) * 10}s`;
        (expectedDecades[d] ??= buckets.map(() => 0))[buckets.indexOf(bucketOfPlay(p))]!++;
      }
      expect(decades.daily_decades).toEqual(expectedDecades);
    });
  }

  it('listening_record: the all-time most played, page_size entries', async () => {
    const data = await get(session, '/apimt/listening_record/?page_size=8');
    const perTrack = tally(plays.map((p) => p.track));
    expect(data.track_list).toHaveLength(3);
    for (const e of data.track_list) expect(e.count).toBe(perTrack.get(tracks.find((t) => t._id === e.record.id)!));
    expect(data.track_list[0]).toMatchObject({ record: { id: tracks[0]!._id, name: tracks[0]!.title, artist: tracks[0]!.artist }, count: 3 });
    const perAlbum = tally(plays.map((p) => p.track.albumId));
    expect(Object.fromEntries(data.album_list.map((e: { record: { id: string }; count: number }) => [e.record.id, e.count]))).toEqual(Object.fromEntries(perAlbum));
    expect((await get(session, '/apimt/listening_record/?page_size=1')).track_list).toEqual([data.track_list[0]]);
  });

  it('rejects a bad period and asks for a session', async () => {
    expectError(await call(h.app, session, 'GET', '/apimt/week_record/?period=day'), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, session, 'GET', '/apimt/week_record/'), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expect((await call(h.app, 'none', 'GET', '/apimt/listening_clock/?period=week')).statusCode).toBe(401);
  });
});

describe('catalogue statistics', () => {
  let session: Session;
  beforeAll(async () => {
    session = await login(h.app, ADMIN.username, ADMIN.password);
    await h.rt.library.catalog.sync();
  });

  const all = () => h.rt.library.catalog.view().tracks;
  const misses: Record<string, (t: TrackDoc) => boolean> = {
    lyrics: (t) => !t.hasLyrics && !t.lrcPath,
    cover: (t) => !t.hasArt && !t.folderCover,
    album: (t) => t.missing.includes('album'),
    artist: (t) => t.missing.includes('artist'),
    genre: (t) => t.genres.length === 0,
    year: (t) => t.year === null,
  };

  it('music_count: totals, this month\'s additions (the scan just now) and 12 months of trend', async () => {
    process.env.TZ = 'Asia/Shanghai';
    const data = await get(session, '/apimt/music_count/');
    const tracks = all();
    const { albums, artists } = h.rt.library.catalog;
    const thisMonth = isoMonth(civilDateOf(Date.now(), 'Asia/Shanghai'));
    expect(data).toMatchObject({
      track_count: tracks.length,
      track_diff: tracks.length,
      track_mom: null,
      song_size_raw: tracks.reduce((s, t) => s + t.size, 0),
      album_count: albums.size,
      album_diff: albums.size,
      album_mom: null,
      artist_count: artists.size,
      artist_diff: artists.size,
      song_duration_raw: Math.round(tracks.reduce((s, t) => s + t.duration, 0)),
      finished_rate: Math.round((tracks.filter((t) => !Object.values(misses).some((m) => m(t))).length / tracks.length) * 10_000) / 10_000,
      active_tasks_count: expect.any(Number),
    });
    expect(data.song_size).toMatch(/^\d+\.\d (KB|MB|GB)$/);
    expect(data.song_duration).toMatch(/^\d+:\d\d:\d\d$/);
    expect(data.trends.x_axis).toHaveLength(12);
    expect(data.trends.x_axis[11]).toBe(thisMonth);
    expect(data.trends.track).toEqual([...Array(11).fill(0), tracks.length]);
    expect(data.trends.album.at(-1)).toBe(albums.size);
    expect(data.trends.artist.at(-1)).toBe(artists.size);
  });

  it('progress_static counts what each kind misses; progress_rate pages through it in library order', async () => {
    const tracks = all();
    const counts = await get(session, '/apimt/progress_static/');
    for (const [kind, miss] of Object.entries(misses)) expect(counts[`miss_${kind}_count`], kind).toBe(tracks.filter(miss).length);
    expect(counts.miss_genre_count).toBeGreaterThan(0);

    const missing = tracks.filter(misses.genre!);
    const first = await get(session, '/apimt/progress_rate/?mode=genre&page=1&page_size=10');
    expect(first.count).toBe(missing.length);
    expect(first.total_page).toBe(Math.ceil(missing.length / 10));
    expect(first.items.map((i: { id: string }) => i.id)).toEqual(missing.slice(0, 10).map((t) => t._id));
    const t = missing[0]!;
    expect(first.items[0]).toEqual({
      id: t._id,
      name: t.title,
      artist_name: t.artist,
      album_name: t.album,
      year: t.year,
      genre: null,
      lyrics: !misses.lyrics!(t),
      album_cover: t.hasArt ? t._id : t.folderCover ? t.albumId : null,
      path: t.path,
    });
    // A page past the last is empty, with the real totals.
    const beyond = await get(session, `/apimt/progress_rate/?mode=genre&page=${first.total_page + 1}&page_size=10`);
    expect(beyond).toEqual({ items: [], total_page: first.total_page, count: missing.length });
    const lyrics = await get(session, '/apimt/progress_rate/?mode=lyrics&page=2&page_size=20');
    expect(lyrics.items.map((i: { id: string }) => i.id)).toEqual(tracks.filter(misses.lyrics!).slice(20, 40).map((x) => x._id));

    expectError(await call(h.app, session, 'GET', '/apimt/progress_rate/?mode=genre&page_size=15'), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, session, 'GET', '/apimt/progress_rate/?mode=title'), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, session, 'GET', '/apimt/progress_rate/?mode=genre&page=0'), 400, 'TAGSONIC_ERR_HTTP_INVALID');
  });
});
