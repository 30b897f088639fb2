import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { FormGroup, TextArea } from '../../../components/ui/form.tsx';
import { SECONDS } from '../../../lib/constants.ts';
import { useT, translate } from '../../../lib/i18n.ts';
import { notify } from '../../../lib/notify.ts';
import { uploadLog } from '../api/upload-log.ts';
import { FEEDBACK_MIN_CHARS, feedbackLength, feedbackLongEnough } from '../lib/runtime-log.ts';

/**
 * 反馈日志: the reason and the logs go to the maintainers. A reason under 20 characters is refused here,
 * nothing sent ('反馈失败！' / '反馈理由至少20字', spec §8).
 */
export function FeedbackDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);

  const send = async () => {
    if (!feedbackLongEnough(reason)) {
      notify({ intent: 'danger', title: translate('反馈失败！'), content: translate('反馈理由至少20字'), timeout: SECONDS.three });
      return;
    }
    setSending(true);
    try {
      await uploadLog(reason.trim());
      setReason('');
      onClose();
    } catch {
      // The client already said why; the dialog stays open with the text.
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('反馈日志')} icon="comment" className="ts-feedback-dialog" data-testid="feedback-dialog">
      <DialogBody>
        <FormGroup
          label={t('反馈理由')}
          labelFor="ts-feedback-reason"
          helperText={t('请描述遇到的问题（至少 {min} 字，已输入 {n} 字）', { min: FEEDBACK_MIN_CHARS, n: feedbackLength(reason) })}
        >
          <TextArea id="ts-feedback-reason" fill rows={6} value={reason} onChange={(e) => setReason(e.target.value)} data-testid="feedback-reason" />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="primary" text={t('提交')} loading={sending} data-testid="feedback-send" onClick={() => void send()} />
          </>
        }
      />
    </Dialog>
  );
}
