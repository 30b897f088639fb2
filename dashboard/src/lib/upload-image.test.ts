import { describe, expect, it } from 'vitest';
import { coverProblem, MAX_COVER_BYTES } from './upload-image.ts';

describe('cover upload limits (§5: 5 MB per file, 20 megapixels per picture)', () => {
  it('accepts a picture within both limits', () => {
    expect(coverProblem({ type: 'image/jpeg', size: MAX_COVER_BYTES }, 20_000_000)).toBeNull();
  });
  it('refuses a file that is not a picture, one over 5 MB, one over 20 megapixels', () => {
    expect(coverProblem({ type: 'audio/mpeg', size: 10 })).toBe('只能上传图片文件');
    expect(coverProblem({ type: 'image/png', size: MAX_COVER_BYTES + 1 }, 100)).toBe('图片不能超过 5 MB');
    expect(coverProblem({ type: 'image/png', size: 1000 }, 5000 * 4001)).toBe('图片不能超过 2000 万像素');
  });
});
