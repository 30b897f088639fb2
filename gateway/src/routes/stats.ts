/**
 * The statistics of the home dashboard, /progress and /record (spec doc 2 §7 "Statistics"), all GET for the
 * signed-in user: music_count, listening_record, progress_static, progress_rate, and per `period` (week | month |
 * year, calendar periods in the server's time zone — core/src/stats/periods.ts) week_record, perfect_music,
 * hot_genres, hot_decades, platform_stats, listening_stats, listening_clock. Plays are the user's Subsonic
 * scrobbles; the shapes are written out in gateway/src/schemas/stats.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import {
  LISTENING_RECORD_SIZE,
  ListeningStatistics,
  musicCount,
  processTimeZone,
  progressRate,
  progressStatic,
  type Period,
  type PeriodPlays,
} from '@tagsonic/core/stats';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import {
  HotDecadesResponse,
  HotGenresResponse,
  ListeningClockResponse,
  ListeningRecordQuery,
  ListeningRecordResponse,
  ListeningStatsResponse,
  MusicCountResponse,
  PerfectMusicResponse,
  PeriodQuery,
  PlatformStatsResponse,
  ProgressRateQuery,
  ProgressRateResponse,
  ProgressStaticResponse,
  WeekRecordResponse,
} from '../schemas/stats.ts';
import type { Ctx } from '../deps.ts';

export async function statsRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { catalog } = ctx.library;
  const listening = new ListeningStatistics({ library: ctx.library.store, catalog, annotations: ctx.library.annotations });
  const errors = { '4xx': ErrorEnvelope };

  r.get('/apimt/music_count/', { onRequest: requireUser, schema: { response: { 200: MusicCountResponse, ...errors } } }, async () => {
    const [, running] = await Promise.all([catalog.sync(), ctx.tasks.findTasks({ status: 'running' })]);
    return ok(musicCount(catalog, { now: Date.now(), zone: processTimeZone(), activeTasks: running.length }));
  });

  r.get(
    '/apimt/listening_record/',
    { onRequest: requireUser, schema: { querystring: ListeningRecordQuery, response: { 200: ListeningRecordResponse, ...errors } } },
    async (request) => ok(await listening.listeningRecord(request.user.sub, request.query.page_size ? Number(request.query.page_size) : LISTENING_RECORD_SIZE)),
  );

  r.get('/apimt/progress_static/', { onRequest: requireUser, schema: { response: { 200: ProgressStaticResponse, ...errors } } }, async () => {
    await catalog.sync();
    return ok(progressStatic(catalog));
  });

  r.get(
    '/apimt/progress_rate/',
    { onRequest: requireUser, schema: { querystring: ProgressRateQuery, response: { 200: ProgressRateResponse, ...errors } } },
    async (request) => {
      await catalog.sync();
      const { mode, page, page_size } = request.query;
      return ok(progressRate(catalog, mode as Parameters<typeof progressRate>[1], page ? Number(page) : 1, page_size ? Number(page_size) : 10));
    },
  );

  /** One route per statistic of a period; the seven share the user's plays when asked together. */
  const periodRoute = (route: string, response: TSchema, compute: (p: PeriodPlays) => unknown) => {
    r.get(
      `/apimt/${route}/`,
      { onRequest: requireUser, schema: { querystring: PeriodQuery, response: { 200: response, ...errors } } },
      async (request) => ok(compute(await listening.periodPlays(request.user.sub, request.query.period as Period, Date.now(), processTimeZone()))),
    );
  };
  periodRoute('week_record', WeekRecordResponse, (p) => listening.weekRecord(p));
  periodRoute('perfect_music', PerfectMusicResponse, (p) => listening.perfectMusic(p));
  periodRoute('hot_genres', HotGenresResponse, (p) => listening.hotGenres(p));
  periodRoute('hot_decades', HotDecadesResponse, (p) => listening.hotDecades(p));
  periodRoute('platform_stats', PlatformStatsResponse, (p) => listening.platformStats(p));
  periodRoute('listening_stats', ListeningStatsResponse, (p) => listening.listeningStats(p));
  periodRoute('listening_clock', ListeningClockResponse, (p) => listening.listeningClock(p));
}
