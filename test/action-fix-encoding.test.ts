/**
 * plugins/fix-encoding (乱码修复). The scorer on its own (with Node's decoders, the host's): GBK, Big5, Shift-JIS
 * and UTF-8 text shown as Latin-1/CP1252 comes back, correct text (accented Latin, real CJK) is left alone.
 * Then through loadPlugin on real files: an MP3 whose ID3v2.3 frames say ISO-8859-1 but hold GBK bytes (as old
 * Chinese taggers wrote them; built byte by byte here), an MP3 with only an ID3v1 tag of GBK bytes, FLAC/MP3 files holding Big5, Shift-JIS and UTF-8
 * mojibake, a dry run that writes nothing, and files with correct text skipped. ffprobe, an independent reader,
 * shows the mojibake before and the right text after.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAG_JOURNAL_COLLECTION } from '@tagsonic/core/tags';
import { commonSets, repairFields, type CommonSets, type Decode } from '../plugins/fix-encoding/src/repair.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { openActionHost, type ActionHost } from './support/action-host.ts';
import { asLatin1, bareMp3, encodeLegacy as encode, id3Latin1, id3v1, mojibake } from './support/mojibake.ts';

/** Node's decoders, as the host's text.decode uses them. */
const decode: Decode = async (bytes, encoding) => {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
};

let common: CommonSets;
beforeAll(async () => {
  common = await commonSets(async (bytes, encoding) => new TextDecoder(encoding).decode(bytes));
});

describe('the repair (scorer)', () => {
  it('builds the common sets from the decoders: GB2312 level 1, Big5 frequent, JIS level 1', () => {
    expect(common.gbk.size).toBe(3755);
    expect(common.big5.size).toBeGreaterThan(5300);
    expect(common.shift_jis.size).toBe(2965);
    expect(common.gbk.has('张')).toBe(true);
    expect(common.big5.has('張')).toBe(true);
  });

  it.each([
    ['gbk', '周杰伦'], ['gbk', '张学友 - 吻别'], ['gbk', '晴天（Live）'], ['gbk', '王菲'], ['gbk', '邓丽君 - 月亮代表我的心'],
    ['big5', '張學友'], ['big5', '真情流露'], ['big5', '周杰倫 - 晴天'],
    ['gbk', 'K歌之王'], ['gbk', '1987我不知道会遇见你'], ['big5', 'K歌之王'], ['big5', '你是我的眼 (Live)'],
    // 陈奕迅 and 陶喆 hold a rare character each (奕: GB2312 level 2; 喆: GBK only); 薛之谦's GBK bytes are valid UTF-8
    // ("Ѧ֮ǫ"), which is no reading; Big5's 晴天 also reads as GBK 锤ぱ (a lone kana); 北国の春 in GBK keeps its particle.
    ['gbk', '陈奕迅'], ['gbk', '陶喆'], ['gbk', '薛之谦'], ['big5', '晴天'], ['big5', '薛之謙'], ['gbk', '北国の春'], ['gbk', '千と千尋の神隠し'],
    ['shift_jis', '宇多田ヒカル'], ['shift_jis', 'ファースト・ラヴ'], ['shift_jis', '浜崎あゆみ'], ['shift_jis', 'Mr.Children - 名もなき詩'],
    ['utf-8', 'Café del Mar'], ['utf-8', '周杰伦'], ['utf-8', 'Sigur Rós – Ágætis byrjun'], ['utf-8', 'Beyoncé'],
  ] as const)('%s: %s comes back from its Latin-1 mojibake', async (encoding, text) => {
    const shown = mojibake(text, encoding);
    expect(shown).not.toBe(text);
    expect(await repairFields({ title: shown }, decode, common)).toEqual({ title: { text, encoding } });
  });

  it('UTF-8 encoded twice comes back too', async () => {
    const twice = asLatin1(new TextEncoder().encode(mojibake('Café', 'utf-8')));
    expect(await repairFields({ title: twice }, decode, common)).toEqual({ title: { text: 'Café', encoding: 'utf-8' } });
  });

  it.each([
    'Björk', 'Beyoncé', 'Motörhead', 'Sigur Rós - Ágætis byrjun', 'Straße', 'Ñandú', 'Zoë Keating', 'Mötley Crüe',
    'Café Tacvba', 'Łódź', '周杰伦', '張學友', '宇多田ヒカル', 'Plain ASCII', '€uro • Mix', 'naïveté', 'Ça ira',
    // Each of these read as Big5 or Shift-JIS before the glue and single-high-byte rules: Los 聲geles, Die 礪zte, 鼙e, 蛍vre, 蚓.
    'Los Ángeles Azules', 'Die Ärzte', 'Die Ärzte – Große Freiheit', 'Åge Aleksandersen', 'Œuvre', 'Æon', 'Ålesund', '36°C',
    'Skálmöld – Börn Loka', 'Ásgeir – Dýrð í dauðaþögn', 'Ñoño Ñañá', 'ÄÖÜ',
  ])('leaves correct text alone: %s', async (text) => {
    expect(await repairFields({ title: text }, decode, common)).toEqual({});
  });

  it("a short field that reads well in two encodings follows the file's other fields", async () => {
    // 童話 in Big5 is BDB5 B8DC; as GBK those bytes read 担杠, common characters too: alone, it is a tie (GBK first).
    const title = mojibake('童話', 'big5');
    expect(await repairFields({ title }, decode, common)).toEqual({ title: { text: '担杠', encoding: 'gbk' } });
    // With the file's artist and album, which read as Big5 only, Big5 wins for the title too.
    const repaired = await repairFields({ title, artist: mojibake('光良', 'big5'), album: mojibake('光良 第一張個人創作專輯', 'big5') }, decode, common);
    expect(repaired).toEqual({
      title: { text: '童話', encoding: 'big5' },
      artist: { text: '光良', encoding: 'big5' },
      album: { text: '光良 第一張個人創作專輯', encoding: 'big5' },
    });
  });
});

// ---------------------------------------------------------------- real files

let host: ActionHost;
const file = (name: string) => path.join(host.media, name);

describe('fix-encoding on real files', () => {
  beforeAll(async () => {
    host = await openActionHost();
    // An MP3 as an old Chinese tagger left it: GBK bytes in frames that say ISO-8859-1.
    const audio = await bareMp3(path.join(host.dir, 'raw.mp3'));
    const tag = id3Latin1({ TIT2: encode('晴天', 'gbk'), TPE1: encode('周杰伦', 'gbk'), TALB: encode('叶惠美', 'gbk'), COMM: new Uint8Array([...Buffer.from('chi'), 0, ...Buffer.from('ok')]) });
    await writeFile(file('gbk.mp3'), Buffer.concat([tag, audio]));
    // An MP3 with only an ID3v1 tag (no encoding field at all: readers take Latin-1) holding GBK bytes.
    await writeFile(file('v1.mp3'), Buffer.concat([await bareMp3(path.join(host.dir, 'bare.mp3')), id3v1({ title: encode('稻香', 'gbk'), artist: encode('周杰伦', 'gbk'), album: encode('魔杰座', 'gbk') })]));
    await makeAudio(file('big5.flac'), { tags: { title: mojibake('吻別', 'big5'), artist: mojibake('張學友', 'big5'), album: mojibake('真情流露', 'big5') } });
    await makeAudio(file('sjis.mp3'), { tags: { title: 'First Love', artist: mojibake('宇多田ヒカル', 'shift_jis') } });
    await makeAudio(file('utf8.flac'), { tags: { title: mojibake('Café del Mar', 'utf-8'), artist: 'Björk' } });
    await makeAudio(file('fine.flac'), { tags: { title: 'Ágætis byrjun', artist: 'Sigur Rós', album: '周杰伦' } });
  }, 60_000);

  afterAll(async () => host?.close());

  it('GBK bytes in ISO-8859-1 ID3 frames: a dry run lists the repair and writes nothing; the real run writes it', async () => {
    const { runItem } = await host.action('fix-encoding');
    const f = file('gbk.mp3');
    expect(await probeTags(f)).toMatchObject({ title: 'ÇçÌì', artist: 'ÖÜ½ÜÂ×' });
    const bytes = await readFile(f);
    const options = { modify_list: ['title', 'artist', 'album', 'album_img'], replace_text_list: [] };
    const dry = await runItem(f, options, true);
    expect(dry).toEqual({
      status: 'success',
      changes: [
        { path: f, kind: 'tags', field: 'title', before: 'ÇçÌì', after: '晴天' },
        { path: f, kind: 'tags', field: 'artist', before: 'ÖÜ½ÜÂ×', after: '周杰伦' },
        { path: f, kind: 'tags', field: 'album', before: 'Ò¶»ÝÃÀ', after: '叶惠美' },
      ],
      report: { encodings: { title: 'gbk', artist: 'gbk', album: 'gbk' } },
    });
    expect((await readFile(f)).equals(bytes)).toBe(true);
    expect(await runItem(f, options)).toEqual(dry);
    expect(await probeTags(f)).toMatchObject({ title: '晴天', artist: '周杰伦', album: '叶惠美' });
    expect(await host.store.collection(TAG_JOURNAL_COLLECTION).find({ path: f })).toEqual([expect.objectContaining({ actor: 'plugin:fix-encoding', state: 'committed' })]);
    expect(await runItem(f, options)).toEqual({ status: 'skip', reason: 'title, artist, album: no mojibake found' });
  });

  it('Big5, Shift-JIS and UTF-8 mojibake are repaired; correct fields beside them are kept', async () => {
    const { runItem } = await host.action('fix-encoding');
    // ID3v1 only: ffprobe shows the GBK bytes as invalid UTF-8; the repair writes an ID3v2 tag that readers prefer.
    expect((await probeTags(file('v1.mp3'))).title).not.toBe('稻香');
    expect(await runItem(file('v1.mp3'), {})).toMatchObject({ status: 'success', report: { encodings: { title: 'gbk', artist: 'gbk', album: 'gbk' } } });
    expect(await probeTags(file('v1.mp3'))).toMatchObject({ title: '稻香', artist: '周杰伦', album: '魔杰座' });
    expect(await runItem(file('big5.flac'), {})).toMatchObject({ status: 'success', report: { encodings: { title: 'big5', artist: 'big5', album: 'big5' } } });
    expect(await probeTags(file('big5.flac'))).toMatchObject({ title: '吻別', artist: '張學友', album: '真情流露' });
    expect(await runItem(file('sjis.mp3'), { modify_list: ['title', 'artist'] })).toMatchObject({ status: 'success', changes: [{ field: 'artist', after: '宇多田ヒカル' }] });
    expect(await probeTags(file('sjis.mp3'))).toMatchObject({ title: 'First Love', artist: '宇多田ヒカル' });
    expect(await runItem(file('utf8.flac'), {})).toMatchObject({ status: 'success', changes: [{ field: 'title', after: 'Café del Mar' }] });
    expect(await probeTags(file('utf8.flac'))).toMatchObject({ title: 'Café del Mar', artist: 'Björk' });
  });

  it('correct text is never "fixed"; replace_text_list then applies literal fixes; bad options fail the item', async () => {
    const { runItem } = await host.action('fix-encoding');
    const before = await readFile(file('fine.flac'));
    expect(await runItem(file('fine.flac'), {})).toMatchObject({ status: 'skip', reason: expect.stringContaining('no mojibake found') });
    expect((await readFile(file('fine.flac'))).equals(before)).toBe(true);
    expect(await runItem(file('fine.flac'), { replace_text_list: [{ before: 'Sigur Rós', after: 'Sigur Rós (IS)' }] })).toMatchObject({
      status: 'success', changes: [{ field: 'artist', before: 'Sigur Rós', after: 'Sigur Rós (IS)' }],
    });
    await expect(runItem(file('fine.flac'), { modify_list: ['nope'] })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    await expect(runItem(file('fine.flac'), { replace_text_list: 'x' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
  });
});
