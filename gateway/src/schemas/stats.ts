import { Type } from 'typebox';
import { Envelope } from './common.ts';

// Query strings are not coerced (the app's Ajv has coerceTypes off): numbers arrive as digits.

/** week | month | year: this calendar week (ISO, from Monday), month or year in the server's time zone. */
export const PeriodQuery = Type.Object({ period: Type.Union([Type.Literal('week'), Type.Literal('month'), Type.Literal('year')]) }, { additionalProperties: false });

export const ListeningRecordQuery = Type.Object({ page_size: Type.Optional(Type.String({ pattern: '^([1-9]|[1-4][0-9]|50)$' })) }, { additionalProperties: false });

export const ProgressRateQuery = Type.Object(
  {
    mode: Type.Union(['lyrics', 'cover', 'album', 'artist', 'genre', 'year'].map((m) => Type.Literal(m))),
    page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,6}$' })),
    page_size: Type.Optional(Type.Union([Type.Literal('10'), Type.Literal('20'), Type.Literal('50')])),
  },
  { additionalProperties: false },
);

/** A fraction (0.25 = +25 %), null when there is no base to compare with. */
const Rate = Type.Unsafe<number | null>({ type: ['number', 'null'] });
const Count = Type.Integer({ minimum: 0 });

export const MusicCountResponse = Envelope(
  Type.Object({
    track_count: Count,
    track_diff: Count,
    track_mom: Rate,
    song_size: Type.String(),
    song_size_raw: Count,
    finished_rate: Type.Number(),
    active_tasks_count: Count,
    album_count: Count,
    album_diff: Count,
    album_mom: Rate,
    artist_count: Count,
    artist_diff: Count,
    artist_mom: Rate,
    song_duration: Type.String(),
    song_duration_raw: Count,
    trends: Type.Object({ x_axis: Type.Array(Type.String()), track: Type.Array(Count), album: Type.Array(Count), artist: Type.Array(Count) }),
  }),
);

const ListeningEntry = Type.Object({
  record: Type.Object({ id: Type.String(), name: Type.String(), artist: Type.Optional(Type.String()), coverArt: Type.String() }),
  count: Count,
});
export const ListeningRecordResponse = Envelope(Type.Object({ track_list: Type.Array(ListeningEntry), album_list: Type.Array(ListeningEntry), artist_list: Type.Array(ListeningEntry) }));

export const ProgressStaticResponse = Envelope(
  Type.Object({
    miss_lyrics_count: Count,
    miss_cover_count: Count,
    miss_album_count: Count,
    miss_artist_count: Count,
    miss_genre_count: Count,
    miss_year_count: Count,
  }),
);

const NullableString = Type.Unsafe<string | null>({ type: ['string', 'null'] });
export const ProgressRateResponse = Envelope(
  Type.Object({
    items: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        artist_name: Type.String(),
        album_name: Type.String(),
        year: Type.Unsafe<number | null>({ type: ['integer', 'null'] }),
        genre: NullableString,
        lyrics: Type.Boolean(),
        album_cover: NullableString,
        path: Type.String(),
      }),
    ),
    total_page: Count,
    count: Count,
  }),
);

export const WeekRecordResponse = Envelope(
  Type.Object({
    date_range: Type.String(),
    this_week_total: Count,
    last_week_total: Count,
    week_rate: Rate,
    jocker: Type.String(),
    record: Type.Array(Type.Object({ date: Type.String(), count: Count })),
  }),
);

/** [name, plays, coverArt id]. */
const Ranked = Type.Tuple([Type.String(), Count, Type.String()]);
const BestOf = Type.Object({ count: Count, rate: Rate, newest: Type.Union([Ranked, Type.Null()]), list: Type.Array(Ranked) });
export const PerfectMusicResponse = Envelope(Type.Object({ artist_record: BestOf, album_record: BestOf, track_record: BestOf }));

const Series = Type.Record(Type.String(), Type.Array(Count));
export const HotGenresResponse = Envelope(Type.Object({ genres: Type.Array(Type.String()), date_list: Type.Array(Type.String()), daily_genres: Series }));
export const HotDecadesResponse = Envelope(Type.Object({ decades: Type.Array(Type.String()), date_list: Type.Array(Type.String()), daily_decades: Series }));

export const PlatformStatsResponse = Envelope(Type.Array(Type.Object({ name: Type.String(), value: Count })));

export const ListeningStatsResponse = Envelope(
  Type.Object({
    duration: Type.Object({ total_seconds: Count, formatted: Type.String(), last_week: Count, growth_rate: Rate }),
    average: Type.Object({ count: Type.Number(), last_week: Type.Number(), growth_rate: Rate }),
    most_active: Type.Object({ count: Count, date: NullableString, last_week: Count, growth_rate: Rate }),
  }),
);

export const ListeningClockResponse = Envelope(Type.Object({ listening_count: Count, hours: Type.Array(Count, { minItems: 24, maxItems: 24 }) }));
