import { spawn } from 'node:child_process';
import { sniffImage } from '../tags/image-info.ts';
import { invalid, unavailable } from '../errors/errors.ts';
import { toolPath } from '../tools.ts';

const FFMPEG_TIMEOUT_MS = 20_000;
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Any picture (PNG, WebP, GIF, BMP…) as JPEG, through ffmpeg on pipes (argument array, pipe-only
 * protocols). JPEG input is returned as it is. `maxSide` scales larger pictures down.
 */
export async function toJpeg(data: Uint8Array, options: { maxSide?: number } = {}): Promise<Uint8Array> {
  const header = sniffImage(data);
  if (!header) throw invalid('TAGSONIC_ERR_IMAGE_UNKNOWN', 'This is not a picture Tagsonic can read (JPEG, PNG, WebP, GIF or BMP).');
  const tooBig = options.maxSide !== undefined && Math.max(header.width, header.height) > options.maxSide;
  if (header.mime === 'image/jpeg' && !tooBig) return data;
  const args = ['-hide_banner', '-loglevel', 'error', '-protocol_whitelist', 'pipe', '-f', 'image2pipe', '-i', 'pipe:0', '-frames:v', '1'];
  if (tooBig) args.push('-vf', `scale='min(${options.maxSide},iw)':'min(${options.maxSide},ih)':force_original_aspect_ratio=decrease`);
  // yuvj420p: full-range JPEG every viewer reads; -q:v 3 is visually lossless for covers.
  args.push('-pix_fmt', 'yuvj420p', '-q:v', '3', '-f', 'mjpeg', 'pipe:1');
  const out = await runFfmpeg(args, data);
  if (sniffImage(out)?.mime !== 'image/jpeg') throw invalid('TAGSONIC_ERR_IMAGE_CONVERT', 'The picture could not be converted to JPEG.');
  return out;
}

function runFfmpeg(args: string[], input: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath('ffmpeg'), args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), FFMPEG_TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(unavailable('TAGSONIC_ERR_IMAGE_FFMPEG', 'ffmpeg is not available to convert pictures.', e));
    });
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_OUTPUT) child.kill('SIGKILL');
      else chunks.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 2000) stderr += c.toString();
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(new Uint8Array(Buffer.concat(chunks)));
      else reject(invalid('TAGSONIC_ERR_IMAGE_CONVERT', `The picture could not be converted (${stderr.trim().split('\n').pop() || `ffmpeg exit ${code}`}).`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
