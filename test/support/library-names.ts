/** Invented but realistic names (artists, albums, titles, lyrics) in several scripts. */
import type { Random } from './library-random.ts';

export type Script = 'zh-Hans' | 'zh-Hant' | 'ja' | 'ko' | 'latin' | 'en';

// Simplified and traditional lists are index-aligned, so a seed yields the "same" name in both scripts.
const ZH_SURNAMES_HANS = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '周', '吴', '孙', '马', '郭', '林', '罗', '郑', '梁', '谢', '韩', '冯'];
const ZH_SURNAMES_HANT = ['王', '李', '張', '劉', '陳', '楊', '黃', '趙', '周', '吳', '孫', '馬', '郭', '林', '羅', '鄭', '梁', '謝', '韓', '馮'];
const ZH_GIVEN_HANS = ['晓东', '雨桐', '一鸣', '静怡', '子轩', '梦洁', '国华', '丽华', '志强', '乐天', '书瑶', '浩然', '欣怡', '嘉乐', '思远', '听风', '云飞', '凯文', '语嫣', '长青'];
const ZH_GIVEN_HANT = ['曉東', '雨桐', '一鳴', '靜怡', '子軒', '夢潔', '國華', '麗華', '志強', '樂天', '書瑤', '浩然', '欣怡', '嘉樂', '思遠', '聽風', '雲飛', '凱文', '語嫣', '長青'];
const ZH_BANDS_HANS = ['月光电台', '白日梦乐团', '城市漫游者', '海边的风', '南方车站乐队', '银色飞鸟'];
const ZH_BANDS_HANT = ['月光電台', '白日夢樂團', '城市漫遊者', '海邊的風', '南方車站樂隊', '銀色飛鳥'];
const ZH_WORDS_HANS = ['时光', '晚风', '记忆', '远方', '长夜', '梦', '城市', '星空', '归来', '春天', '蓝色', '旅行', '声音', '海洋', '故事', '爱情', '雨季', '飞鸟', '回忆', '灯火', '青春', '电台', '无题', '黄昏'];
const ZH_WORDS_HANT = ['時光', '晚風', '記憶', '遠方', '長夜', '夢', '城市', '星空', '歸來', '春天', '藍色', '旅行', '聲音', '海洋', '故事', '愛情', '雨季', '飛鳥', '回憶', '燈火', '青春', '電台', '無題', '黃昏'];
const ZH_TITLE_FORMS_HANS = ['{a}', '{a}的{b}', '{a}与{b}', '{a}之歌', '再见{a}', '{a}里的{b}', '致{a}'];
const ZH_TITLE_FORMS_HANT = ['{a}', '{a}的{b}', '{a}與{b}', '{a}之歌', '再見{a}', '{a}裡的{b}', '致{a}'];

const JA_ARTISTS = ['山田花子', '佐藤健一', '鈴木あかり', '高橋ゆうこ', '月影バンド', 'ミドリノソラ', '小林まこと', '星野レイ'];
const JA_WORDS = ['夏の終わり', 'さくら色の空', '星の降る夜', '風の歌', '雨上がり', '青い鳥', '東京の灯', '遠い約束', '静かな海', '君の名前', '夜明け前', 'ひだまり'];
const KO_ARTISTS = ['김민준', '이서연', '박지훈', '최유나', '정하늘', '별빛소년', '한여름', '윤도현밴드'];
const KO_WORDS = ['봄날의 기억', '별이 빛나는 밤', '그리운 바다', '우리의 여름', '첫눈', '너에게', '비 오는 날', '하늘 아래', '밤편지', '다시 만나'];
const LATIN_ARTISTS = [
  'Zoë Ångström',
  'José Álvarez',
  'Françoise Lefèvre',
  'Björn Nyström',
  'Sinéad Ó Móráin',
  'Łukasz Żółć',
  'Anaïs Dubois',
  'João Conceição',
  'Chloé Bénard',
  'Søren Kjærgaard',
  'Les Étoiles Perdues',
  'Über Café Ensemble',
];
const LATIN_WORDS = ['Été Indien', 'Mañana', 'Canción', 'Rêverie', 'Señorita', 'Café Noir', 'Über Alles', 'Naïve', 'Crème Brûlée', 'Déjà Vu', 'Cœur Brisé', 'Ça Va', 'Año Nuevo', 'Smörgåsbord', 'Fiançailles', 'São Paulo'];
const EN_ARTISTS = ['The Quiet Harbors', 'Northern Lights Orchestra', 'Mira Vance', 'Jonah Reed', 'Paper Satellites', 'Emily Hart', 'Silver Pines', 'Oliver Stone Trio', 'Neon Tides', 'Grace Whitfield'];
const EN_ADJECTIVES = ['Silent', 'Golden', 'Broken', 'Electric', 'Distant', 'Midnight', 'Hollow', 'Velvet', 'Paper', 'Wild', 'Crimson', 'Endless'];
const EN_NOUNS = ['River', 'Skyline', 'Heart', 'Signal', 'Garden', 'Echo', 'Highway', 'Morning', 'Letters', 'Ocean', 'Lanterns', 'Summer'];

const LANGUAGES: Record<Script, readonly string[]> = {
  'zh-Hans': ['zho'],
  'zh-Hant': ['zho'],
  ja: ['jpn'],
  ko: ['kor'],
  latin: ['fra', 'spa', 'por', 'swe', 'deu'],
  en: ['eng'],
};

const GENRES: Record<Script, readonly string[]> = {
  'zh-Hans': ['华语流行', '民谣', '摇滚', 'Pop', 'Folk', 'Rock'],
  'zh-Hant': ['華語流行', '民謠', '搖滾', 'Pop', 'Folk', 'Rock'],
  ja: ['J-Pop', 'City Pop', 'Rock', 'Anime'],
  ko: ['K-Pop', 'Ballad', 'R&B', 'Indie'],
  latin: ['Chanson', 'Latin', 'Jazz', 'Classical', 'Bossa Nova'],
  en: ['Pop', 'Rock', 'Indie', 'Electronic', 'Ambient', 'Hip-Hop', 'Soundtrack', 'Metal'],
};

const fill = (form: string, a: string, b: string): string => form.replace('{a}', a).replace('{b}', b);

const zhPhrase = (random: Random, traditional: boolean): string => {
  const forms = traditional ? ZH_TITLE_FORMS_HANT : ZH_TITLE_FORMS_HANS;
  const words = traditional ? ZH_WORDS_HANT : ZH_WORDS_HANS;
  const formIndex = random.int(0, forms.length - 1);
  const a = random.int(0, words.length - 1);
  let b = random.int(0, words.length - 1);
  if (b === a) b = (b + 1) % words.length;
  return fill(forms[formIndex], words[a], words[b]);
};

export const artistName = (script: Script, random: Random): string => {
  switch (script) {
    case 'zh-Hans':
    case 'zh-Hant': {
      const traditional = script === 'zh-Hant';
      if (random.chance(0.2)) return random.pick(traditional ? ZH_BANDS_HANT : ZH_BANDS_HANS);
      const s = random.int(0, ZH_SURNAMES_HANS.length - 1);
      const g = random.int(0, ZH_GIVEN_HANS.length - 1);
      return traditional ? ZH_SURNAMES_HANT[s] + ZH_GIVEN_HANT[g] : ZH_SURNAMES_HANS[s] + ZH_GIVEN_HANS[g];
    }
    case 'ja':
      return random.pick(JA_ARTISTS);
    case 'ko':
      return random.pick(KO_ARTISTS);
    case 'latin':
      return random.pick(LATIN_ARTISTS);
    case 'en':
      return random.pick(EN_ARTISTS);
  }
};

export const phrase = (script: Script, random: Random): string => {
  switch (script) {
    case 'zh-Hans':
      return zhPhrase(random, false);
    case 'zh-Hant':
      return zhPhrase(random, true);
    case 'ja':
      return random.chance(0.3) ? `${random.pick(JA_WORDS)}に` : random.pick(JA_WORDS);
    case 'ko':
      return random.pick(KO_WORDS);
    case 'latin':
      return random.chance(0.3) ? `${random.pick(LATIN_WORDS)} à Paris` : random.pick(LATIN_WORDS);
    case 'en':
      return `${random.pick(EN_ADJECTIVES)} ${random.pick(EN_NOUNS)}`;
  }
};

/** A name `make` has not returned before; falls back to numbering, as real libraries do ("Vol. 2"). */
export const uniqueName = (taken: Set<string>, make: () => string): string => {
  for (let attempt = 0; attempt < 20; attempt++) {
    const name = make();
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
  const base = make();
  for (let n = 2; ; n++) {
    const name = `${base} Vol. ${n}`;
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
};

export const languageFor = (script: Script, random: Random): string => random.pick(LANGUAGES[script]);

export const genreFor = (script: Script, random: Random): string => random.pick(GENRES[script]);

/** Distinct genres for a multi-value genre tag. */
export const genresFor = (script: Script, random: Random, count: number): string[] =>
  random.shuffle([...new Set([...GENRES[script], ...GENRES.en])]).slice(0, count);

export const lyricLines = (script: Script, random: Random, count: number): string[] =>
  Array.from({ length: count }, () => phrase(script, random));

const COMMENTS = ['Remastered 2019', 'Live at the Blue Room', 'From the original master tapes', '首版 CD 抓轨', 'デモ音源', 'Bonus track', 'EAC rip, secure mode', '限定版'];

export const commentText = (random: Random): string => random.pick(COMMENTS);

/** Separators real libraries use to join several artists in one tag. */
export const ARTIST_SEPARATORS = ['/', ' & ', '、', ',', '，', ' feat. '] as const;

/** Replaces characters that cannot appear in file names on common file systems. */
export const safeFileName = (name: string): string => name.replace(/[\\/:*?"<>|]/g, '_').replace(/^\.+/, '_').trim() || '_';
