import { describe, expect, it } from 'vitest';
import { sanitizeFileName, sanitizeRelativePath } from './sanitize.ts';

describe('sanitizeFileName', () => {
  it('replaces separators and characters no filesystem accepts', () => {
    expect(sanitizeFileName('AC/DC')).toBe('AC_DC');
    expect(sanitizeFileName('a\\b:c*d?e"f<g>h|i')).toBe('a_b_c_d_e_f_g_h_i');
    expect(sanitizeFileName('tab\there\u0000nul')).toBe('tab_here_nul');
  });
  it('never yields . or .. or an empty name', () => {
    expect(sanitizeFileName('..')).toBe('_');
    expect(sanitizeFileName('.')).toBe('_');
    expect(sanitizeFileName('')).toBe('_');
    expect(sanitizeFileName('  ')).toBe('_');
    expect(sanitizeFileName('.. ')).toBe('_');
    expect(sanitizeFileName('name. . ')).toBe('name');
  });
  it('defuses Windows-reserved names', () => {
    expect(sanitizeFileName('CON')).toBe('_CON');
    expect(sanitizeFileName('nul.mp3')).toBe('_nul.mp3');
    expect(sanitizeFileName('Console')).toBe('Console');
  });
  it('keeps CJK and accents, and truncates to 255 UTF-8 bytes without splitting characters', () => {
    expect(sanitizeFileName('周杰伦 - 晴天')).toBe('周杰伦 - 晴天');
    expect(sanitizeFileName('Beyoncé')).toBe('Beyoncé');
    const long = '晴'.repeat(200) + '.flac';
    const out = sanitizeFileName(long);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(255);
    expect(out.endsWith('.flac')).toBe(true);
    expect(out).not.toContain('\uFFFD');
  });
});

describe('sanitizeRelativePath', () => {
  it('sanitises each segment and drops traversal', () => {
    expect(sanitizeRelativePath('Artist/../Album')).toBe('Artist/_/Album');
    expect(sanitizeRelativePath('/abs/path/')).toBe('abs/path');
    expect(sanitizeRelativePath('A\\B/C')).toBe('A/B/C');
  });
});
