import './editor-panel.css';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { TextArea } from '../../../components/ui/form.tsx';
import { SECONDS } from '../../../lib/constants.ts';
import { useT } from '../../../lib/i18n.ts';
import { notifySuccess, notifyWarning } from '../../../lib/notify.ts';
import { translationLyc } from '../api/translation-lyc.ts';
import { useEditor } from '../stores/editor-store.ts';

/**
 * Lyric translation: the lyrics beside a text area for their translation, a button that has the
 * configured LLM translate them (translation_lyc, timestamps kept), and one that copies the translation
 * into the lyrics (§2). The translation can also be typed or pasted.
 */
export function LyricTranslation() {
  const t = useT();
  const lyrics = useEditor((s) => s.values.lyrics ?? '');
  const translation = useEditor((s) => s.translation);
  const { setTranslation, setValue } = useEditor.getState();
  const [translating, setTranslating] = useState(false);

  async function translate() {
    if (lyrics.trim() === '') {
      notifyWarning(t('歌词不能为空！'), undefined, SECONDS.two);
      return;
    }
    setTranslating(true);
    try {
      setTranslation(await translationLyc(lyrics));
    } catch {
      // 翻译失败！ with the server's message has been shown.
    } finally {
      setTranslating(false);
    }
  }

  return (
    <div className="ts-translation" data-testid="lyric-translation">
      <label className="ts-small ts-muted" htmlFor="ts-translation-src">
        {t('原歌词')}
      </label>
      <TextArea id="ts-translation-src" value={lyrics} readOnly fill rows={8} className="ts-mono" />
      <label className="ts-small ts-muted" htmlFor="ts-translation-text">
        {t('翻译')}
      </label>
      <TextArea id="ts-translation-text" value={translation} onChange={(e) => setTranslation(e.currentTarget.value)} fill rows={8} className="ts-mono" placeholder={t('在此输入或粘贴翻译')} />
      <div className="ts-translation-actions">
        <Button icon="translate" text={t('翻译歌词')} loading={translating} onClick={() => void translate()} data-testid="translate-button" />
        <Button
          icon="duplicate"
          intent="primary"
          text={t('复制到歌词')}
          disabled={translating}
          onClick={() => {
            if (translation.trim() === '') {
              notifyWarning(t('歌词不能为空！'), undefined, SECONDS.two);
              return;
            }
            setValue('lyrics', translation);
            notifySuccess(t('已复制到歌词'), t('保存后写入文件'), SECONDS.two);
          }}
        />
      </div>
    </div>
  );
}
