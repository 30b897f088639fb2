/** Runs the audio engine while the shell is mounted (one per page; the bar mounts it). */
import { useEffect } from 'react';
import { translate } from '../../../lib/i18n.ts';
import { startAudioEngine } from '../lib/audio-engine.ts';
import { documentTitle } from '../lib/playback.ts';
import { shownName } from '../lib/track.ts';

export function useAudioEngine(): void {
  useEffect(() => startAudioEngine({ title: (track) => documentTitle(track, (name) => shownName(name, (zh) => translate(zh))) }), []);
}
