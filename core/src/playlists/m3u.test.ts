import { describe, expect, it } from 'vitest';
import { formatM3u8, parseM3u } from './m3u.ts';

describe('m3u', () => {
  it('parses BOM, CRLF, EXTINF, PLAYLIST, file URIs, Windows paths and remote URLs', () => {
    const text =
      '\uFEFF#EXTM3U\r\n#PLAYLIST:Road trip\r\n#EXTINF:215,Alpha - Song One\r\nAlpha/One.mp3\r\n\r\n' +
      '# a comment\r\n#EXTINF:-1,Stream\r\nhttp://radio.example/live\r\nfile:///music/A%20B/two.flac\r\n' +
      'C:\\Music\\Beta\\three.ogg\r\n#EXTINF:12.5 tvg-id="x",Gamma - Four\n./rel/four.opus\n';
    const p = parseM3u(text);
    expect(p.name).toBe('Road trip');
    expect(p.entries).toEqual([
      { location: 'Alpha/One.mp3', line: 4, duration: 215, display: 'Alpha - Song One', remote: false },
      { location: 'http://radio.example/live', line: 8, duration: null, display: 'Stream', remote: true },
      { location: '/music/A B/two.flac', line: 9, duration: null, display: null, remote: false },
      { location: '/Music/Beta/three.ogg', line: 10, duration: null, display: null, remote: false },
      { location: './rel/four.opus', line: 12, duration: 12.5, display: 'Gamma - Four', remote: false },
    ]);
  });

  it('writes extended M3U8 that parses back to the same entries', () => {
    const items = [
      { path: '/music/林/一.flac', duration: 200.4, artist: '林语嫣', title: '一' },
      { path: '/music/x\ny.mp3', duration: 3, artist: 'A', title: 'B\r\nC' },
    ];
    const text = formatM3u8('Mix\nTape', items);
    expect(text).toBe('#EXTM3U\n#PLAYLIST:Mix Tape\n#EXTINF:200,林语嫣 - 一\n/music/林/一.flac\n#EXTINF:3,A - B C\n/music/x y.mp3\n');
    const back = parseM3u(text);
    expect(back.name).toBe('Mix Tape');
    expect(back.entries.map((e) => e.location)).toEqual(['/music/林/一.flac', '/music/x y.mp3']);
  });
});
