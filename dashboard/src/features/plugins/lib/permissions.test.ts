import { describe, expect, it } from 'vitest';
import { EN } from '../../../lib/i18n-en.ts';
import type { PluginPermission } from '../api/types.ts';
import { permissionText, summarisePermissions } from './permissions.ts';

const perms: PluginPermission[] = [
  { kind: 'tags', detail: 'write', reason: 'Writes the tags it finds' },
  { kind: 'http', detail: 'musicbrainz.org', reason: 'Looks up recordings' },
  { kind: 'http', detail: '*.coverartarchive.org', reason: 'Downloads covers' },
  { kind: 'http', detail: 'api.acoustid.org', reason: 'Matches fingerprints' },
  { kind: 'fingerprint', detail: '', reason: 'Identifies the recording' },
];

describe('plugin permissions', () => {
  it('summarises hosts in one part, cut after two, other kinds after it, write access marked', () => {
    expect(summarisePermissions(perms)).toEqual([
      { kind: 'http', details: ['musicbrainz.org', '*.coverartarchive.org'], more: 1, write: false },
      { kind: 'tags', details: ['write'], more: 0, write: true },
      { kind: 'fingerprint', details: [], more: 0, write: false },
    ]);
    expect(summarisePermissions([])).toEqual([]);
    // The language model spends the administrator's quota: it is named in the list's summary too.
    expect(summarisePermissions([{ kind: 'llm', detail: '', reason: 'Translates lyrics' }])).toEqual([{ kind: 'llm', details: [], more: 0, write: false }]);
  });

  it('words every permission, in both languages', () => {
    for (const p of [...perms, { kind: 'files', detail: 'read', reason: '' }, { kind: 'files', detail: 'write', reason: '' }, { kind: 'tags', detail: 'read', reason: '' }, { kind: 'ffmpeg', detail: '', reason: '' }, { kind: 'sources', detail: '', reason: '' }, { kind: 'llm', detail: '', reason: '' }] as PluginPermission[]) {
      const { key } = permissionText(p);
      expect(key, p.kind).toMatch(/[\u4e00-\u9fff]/);
      expect(EN[key], key).toBeTruthy();
    }
    expect(permissionText(perms[1]!)).toEqual({ key: '访问网站 {detail}', params: { detail: 'musicbrainz.org' } });
  });
});
