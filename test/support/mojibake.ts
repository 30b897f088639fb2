import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

/**
 * Mis-encoded tag text for the encoding-repair tests: text in a legacy encoding (Node only decodes those, so the
 * encoder is a reverse table built from every two-byte code), what a Latin-1 reader shows for it, and an MP3 tag
 * that declares ISO-8859-1 while holding other bytes, as old Chinese and Japanese taggers wrote them.
 */
export type Legacy = 'gbk' | 'big5' | 'shift_jis';

const tables = new Map<Legacy, Map<string, number[]>>();

/** `text` in a legacy encoding (ASCII as is). Throws on a character the encoding lacks. */
export function encodeLegacy(text: string, encoding: Legacy): Uint8Array {
  let table = tables.get(encoding);
  if (!table) {
    table = new Map();
    const decoder = new TextDecoder(encoding, { fatal: true });
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (let trail = 0x40; trail <= 0xfe; trail++) {
        try {
          const c = decoder.decode(new Uint8Array([lead, trail]));
          if ([...c].length === 1 && !table.has(c)) table.set(c, [lead, trail]);
        } catch { /* not a code */ }
      }
    }
    tables.set(encoding, table);
  }
  const out: number[] = [];
  for (const c of text) {
    if (c.charCodeAt(0) < 0x80) out.push(c.charCodeAt(0));
    else {
      const bytes = table.get(c);
      if (!bytes) throw new Error(`${encoding} has no ${c}`);
      out.push(...bytes);
    }
  }
  return new Uint8Array(out);
}

/** What a Latin-1 reader shows for these bytes (WHATWG's latin1 is windows-1252, as such readers are). */
export const asLatin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);

/** `text` written in `encoding`, shown by a Latin-1 reader: "张学友" as GBK → "ÕÅÑ§ÓÑ". */
export const mojibake = (text: string, encoding: Legacy | 'utf-8') => asLatin1(encoding === 'utf-8' ? new TextEncoder().encode(text) : encodeLegacy(text, encoding));

/** An ID3v2.3 tag whose frames declare ISO-8859-1 (encoding byte 0) and hold `bytes` as they are. */
export function id3Latin1(frames: Record<string, Uint8Array>): Uint8Array {
  const parts: number[] = [];
  for (const [id, bytes] of Object.entries(frames)) {
    const size = bytes.length + 1;
    parts.push(...Buffer.from(id, 'latin1'), (size >>> 24) & 0xff, (size >>> 16) & 0xff, (size >>> 8) & 0xff, size & 0xff, 0, 0, 0, ...bytes);
  }
  const n = parts.length;
  return new Uint8Array([...Buffer.from('ID3'), 3, 0, 0, (n >>> 21) & 0x7f, (n >>> 14) & 0x7f, (n >>> 7) & 0x7f, n & 0x7f, ...parts]);
}

/** An ID3v1 tag (the 128 bytes at a file's end): fields hold `bytes` as they are, as old taggers wrote them. */
export function id3v1(fields: { title?: Uint8Array; artist?: Uint8Array; album?: Uint8Array }): Uint8Array {
  const tag = new Uint8Array(128);
  tag.set(Buffer.from('TAG'));
  if (fields.title) tag.set(fields.title.subarray(0, 30), 3);
  if (fields.artist) tag.set(fields.artist.subarray(0, 30), 33);
  if (fields.album) tag.set(fields.album.subarray(0, 30), 63);
  tag[127] = 255; // no genre
  return tag;
}

/** An MP3 without any ID3v2 tag (ffmpeg writes one even when asked not to), made with ffmpeg. */
export async function bareMp3(file: string): Promise<Uint8Array> {
  await promisify(execFile)('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=d=1', '-map_metadata', '-1', '-write_id3v2', '0', file]);
  let audio: Uint8Array = await readFile(file);
  if (Buffer.from(audio.subarray(0, 3)).toString() === 'ID3') {
    const size = (audio[6]! << 21) | (audio[7]! << 14) | (audio[8]! << 7) | audio[9]!;
    audio = audio.subarray(10 + size);
  }
  return audio;
}
