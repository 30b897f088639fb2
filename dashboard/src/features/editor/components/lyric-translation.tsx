import { Button } from '../../../components/ui/button.tsx';
import { TextArea } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifySuccess, notifyWarning } from '../../../lib/notify.ts';
import { useEditor } from '../stores/editor-store.ts';

/**
 * Lyric translation: the lyrics beside a text area for their translation, and a button that copies the
 * translation into the lyrics (§2). Machine translation (translation_lyc) arrives with the scraping
 * sources; until then the translation is typed or pasted here.
 */
export function LyricTranslation() {
  const t = useT();
  const lyrics = useEditor((s) => s.values.lyrics ?? '');
  const translation = useEditor((s) => s.translation);
  const { setTranslation, setValue } = useEditor.getState();

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
      <Button
        icon="duplicate"
        intent="primary"
        text={t('复制到歌词')}
        onClick={() => {
          if (translation.trim() === '') {
            notifyWarning(t('歌词不能为空！'), undefined, 2000);
            return;
          }
          setValue('lyrics', translation);
          notifySuccess(t('已复制到歌词'), t('保存后写入文件'), 2000);
        }}
      />
    </div>
  );
}
