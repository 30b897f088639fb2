/**
 * Cover facts without decoding the picture: type from the magic bytes, dimensions from the header,
 * sha256 of the exact bytes (what the journal and undo compare).
 */
import { hash } from 'node:crypto';
import type { ArtworkInfo } from './model.ts';

export interface ImageHeader {
  mime: string;
  width: number;
  height: number;
}

export const sha256Hex = (data: Uint8Array): string => hash('sha256', data);

/** The image type and size read from its header; `null` when the bytes are not a known image type. */
export function sniffImage(data: Uint8Array): ImageHeader | null {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a && b.toString('latin1', 12, 16) === 'IHDR') {
    return { mime: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (b.length >= 10 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) {
    return { mime: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return webp(b);
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) {
    return { mime: 'image/bmp', width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) };
  }
  return null;
}

function jpeg(b: Buffer): ImageHeader {
  let pos = 2;
  while (pos + 9 < b.length) {
    if (b[pos] !== 0xff) {
      pos++;
      continue;
    }
    const marker = b[pos + 1]!;
    if (marker === 0xff) {
      pos++;
      continue;
    }
    // Standalone markers carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      pos += 2;
      continue;
    }
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) return { mime: 'image/jpeg', height: b.readUInt16BE(pos + 5), width: b.readUInt16BE(pos + 7) };
    pos += 2 + b.readUInt16BE(pos + 2);
  }
  return { mime: 'image/jpeg', width: 0, height: 0 };
}

function webp(b: Buffer): ImageHeader {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { mime: 'image/webp', width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { mime: 'image/webp', width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') return { mime: 'image/webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return { mime: 'image/webp', width: 0, height: 0 };
}

/** Facts about an embedded picture; the declared MIME type is used only when the bytes are unknown. */
export function artworkInfo(data: Uint8Array, declaredMime?: string): ArtworkInfo {
  const header = sniffImage(data);
  return {
    mime: header?.mime ?? normaliseMime(declaredMime),
    width: header?.width ?? 0,
    height: header?.height ?? 0,
    size: data.byteLength,
    sha256: sha256Hex(data),
  };
}

function normaliseMime(mime: string | undefined): string {
  if (!mime) return 'application/octet-stream';
  const m = mime.toLowerCase();
  if (m === 'jpg' || m === 'image/jpg') return 'image/jpeg';
  if (m === 'png') return 'image/png';
  return m.includes('/') ? m : `image/${m}`;
}
