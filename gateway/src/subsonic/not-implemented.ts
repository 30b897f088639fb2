/**
 * Subsonic methods Tagsonic deliberately does not serve, each with the reason a client will show.
 * They answer HTTP 501 with a Subsonic error (code 0) so nothing answers by accident; methods that
 * are neither registered nor listed here answer 404 "unknown method".
 */
const VIDEO = 'Tagsonic is a music server: video is not supported.';
const CHAT = 'Tagsonic has no chat.';
const PODCASTS = 'Tagsonic does not manage podcasts.';
const JUKEBOX = 'Tagsonic has no jukebox mode (server-side playback).';

export const NOT_IMPLEMENTED: ReadonlyMap<string, string> = new Map([
  ['getVideos', VIDEO],
  ['getVideoInfo', VIDEO],
  ['getCaptions', VIDEO],
  ['hls', 'HLS streaming is not supported: use stream.'],
  ['getChatMessages', CHAT],
  ['addChatMessage', CHAT],
  ['getPodcasts', PODCASTS],
  ['getNewestPodcasts', PODCASTS],
  ['getPodcastEpisode', PODCASTS],
  ['refreshPodcasts', PODCASTS],
  ['createPodcastChannel', PODCASTS],
  ['deletePodcastChannel', PODCASTS],
  ['deletePodcastEpisode', PODCASTS],
  ['downloadPodcastEpisode', PODCASTS],
  ['jukeboxControl', JUKEBOX],
  ['search', 'search (Subsonic 1.0) is deprecated and not supported: use search3 (or search2).'],
]);
