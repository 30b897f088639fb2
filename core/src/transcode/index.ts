export { Transcoder, type TranscoderOptions, type TranscodeSource, type TranscodeTarget, type TranscodeOptions, type TranscodedStream } from './transcoder.ts';
export { PROFILES, profileFor, bitRateFor, outputOfMuxer, type Profile, type TranscodeFormat } from './profiles.ts';
export { profileCommand, templateCommand, splitWords, type Command, type CommandInput } from './command.ts';
export { Limiter } from './limiter.ts';
export { DecodeSettingsReader, decodeSettingsOf, DEFAULT_DECODE_COMMAND, DEFAULT_DECODE_CACHE_ENTRIES, SETTINGS_COLLECTION, SYSTEM_SETTINGS_ID, type DecodeSettings } from './settings.ts';
export { CoverCache, MAX_COVER_SIZE, type CoverCacheOptions, type CoverImage, type CoverSource } from './covers.ts';
export { avatarPng, AVATAR_SIDE } from './avatar.ts';
