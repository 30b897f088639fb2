/**
 * A source's cover URL as a picture the save can write. update_id3 takes only an upload_image URL or a
 * data: URL (the gateway does not download from other hosts), and the page's CSP keeps fetch() to our own
 * origin, so the browser loads the picture as an <img> with CORS (cover CDNs send
 * Access-Control-Allow-Origin) and re-encodes it through a canvas as a JPEG within the upload limits.
 */

/** The cover upload limits (§5, §9): 5 MB per file, 20 megapixels per picture. */
const MAX_BYTES = 5 * 1024 * 1024;
const MAX_PIXELS = 20_000_000;

export class RemoteCoverError extends Error {}

function load(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.referrerPolicy = 'no-referrer';
    img.onload = () => resolve(img);
    img.onerror = () => reject(new RemoteCoverError(`The cover could not be loaded from ${new URL(url, location.href).host} (unreachable, or it does not allow cross-origin use).`));
    img.src = url;
  });
}

const toBlob = (canvas: HTMLCanvasElement, quality: number): Promise<Blob | null> => new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));

/** Loads the cover and returns it as a JPEG file no larger than the upload limits. */
export async function remoteCoverFile(url: string): Promise<File> {
  const img = await load(url);
  let { naturalWidth: w, naturalHeight: h } = img;
  if (w === 0 || h === 0) throw new RemoteCoverError('The cover is empty.');
  // Scale a giant picture down to the pixel limit instead of refusing it.
  const scale = Math.min(1, Math.sqrt(MAX_PIXELS / (w * h)));
  w = Math.floor(w * scale);
  h = Math.floor(h * scale);
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  canvas.getContext('2d')!.drawImage(img, 0, 0, w, h);
  for (const quality of [0.92, 0.85, 0.75, 0.6]) {
    let blob: Blob | null;
    try {
      blob = await toBlob(canvas, quality);
    } catch {
      // A host without CORS headers taints the canvas: its pixels cannot be read back.
      throw new RemoteCoverError(`${new URL(url, location.href).host} does not allow its covers to be copied from the browser.`);
    }
    if (!blob) throw new RemoteCoverError('The cover could not be encoded.');
    if (blob.size <= MAX_BYTES) return new File([blob], 'cover.jpg', { type: 'image/jpeg' });
  }
  throw new RemoteCoverError('The cover is larger than 5 MB even as a JPEG.');
}
