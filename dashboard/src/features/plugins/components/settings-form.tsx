import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Callout } from '../../../components/ui/display.tsx';
import { Checkbox, FormGroup, HTMLSelect, InputGroup } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { configurePlugin } from '../api/configure-plugin.ts';
import type { PluginDetail, PluginItem } from '../api/types.ts';
import { buildConfig, initialValues, parseBaseUrl, type FieldError, type FormValues } from '../lib/config-form.ts';

/**
 * A plugin's settings: the base-URL override of a tag source (read-only when the environment sets it) and
 * the form its manifest declares. Non-administrators see the values without a save button.
 */
export function SettingsForm({ detail, isAdmin, onSaved }: { detail: PluginDetail; isAdmin: boolean; onSaved: (item: PluginItem) => void }) {
  const t = useT();
  const schema = detail.config_schema;
  const fields = Object.entries(schema?.properties ?? {});
  const required = new Set(schema?.required ?? []);
  const [values, setValues] = useState<FormValues>(() => initialValues(schema, detail.settings.config));
  const [baseUrl, setBaseUrl] = useState(detail.settings.base_url ?? '');
  const [errors, setErrors] = useState<Record<string, FieldError>>({});
  const [busy, setBusy] = useState(false);
  const source = detail.kind === 'tag-source';
  const parsedUrl = parseBaseUrl(baseUrl);
  const envName = `TAGSONIC_SOURCE_URL_${detail.id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

  if (!source && fields.length === 0) return <p className="ts-muted">{t('此插件没有设置项。')}</p>;

  const save = () => {
    const built = buildConfig(schema, values);
    setErrors(built.errors);
    if (Object.keys(built.errors).length > 0 || parsedUrl === undefined) return;
    setBusy(true);
    void configurePlugin(detail.id, { ...(source ? { base_url: parsedUrl } : {}), ...(fields.length > 0 ? { config: built.config } : {}) })
      .then(onSaved, () => undefined)
      .finally(() => setBusy(false));
  };

  return (
    <form
      className="ts-plugin-settings"
      data-testid="plugin-settings"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      {source ? (
        <>
          {detail.env_base_url ? (
            <FormGroup label={t('数据源地址')} labelFor="ts-plugin-env-url" helperText={t('由服务器环境变量 {name} 设置，优先于这里的地址；修改它需要在服务器上更改该变量并重启。', { name: envName })}>
              <InputGroup id="ts-plugin-env-url" value={detail.env_base_url} readOnly leftIcon="lock" data-testid="plugin-env-url" />
            </FormGroup>
          ) : null}
          <FormGroup
            label={detail.env_base_url ? t('数据源地址（环境变量未设置时使用）') : t('数据源地址')}
            labelFor="ts-plugin-base-url"
            intent={parsedUrl === undefined ? 'danger' : 'none'}
            helperText={parsedUrl === undefined ? t('请输入 http:// 或 https:// 开头的地址') : t('留空使用插件的默认地址；填写自建镜像（例如本机的 MusicBrainz）时，插件可以访问这个地址。')}
          >
            <InputGroup id="ts-plugin-base-url" value={baseUrl} onValueChange={setBaseUrl} placeholder="https://" disabled={!isAdmin} intent={parsedUrl === undefined ? 'danger' : 'none'} />
          </FormGroup>
        </>
      ) : null}
      {fields.map(([key, field]) => {
        const id = `ts-plugin-config-${key}`;
        const error = errors[key];
        const label = `${field.title}${required.has(key) ? ' *' : ''}`;
        const helper = error ? t(error) : field.description;
        if (field.type === 'boolean') {
          return (
            <FormGroup key={key} helperText={field.description}>
              <Checkbox id={id} label={field.title} checked={values[key] === true} disabled={!isAdmin} onChange={(e) => setValues({ ...values, [key]: e.currentTarget.checked })} />
            </FormGroup>
          );
        }
        return (
          <FormGroup key={key} label={label} labelFor={id} helperText={helper} intent={error ? 'danger' : 'none'}>
            {field.type === 'string' && field.enum ? (
              <HTMLSelect id={id} value={String(values[key] ?? '')} disabled={!isAdmin} onChange={(e) => setValues({ ...values, [key]: e.currentTarget.value })} options={[...(required.has(key) ? [] : [{ value: '', label: '—' }]), ...field.enum.map((v) => ({ value: v, label: v }))]} />
            ) : (
              <InputGroup
                id={id}
                type={field.type === 'string' && field.secret ? 'password' : 'text'}
                inputMode={field.type === 'number' ? 'decimal' : undefined}
                autoComplete="off"
                value={String(values[key] ?? '')}
                disabled={!isAdmin}
                intent={error ? 'danger' : 'none'}
                onValueChange={(v) => setValues({ ...values, [key]: v })}
              />
            )}
          </FormGroup>
        );
      })}
      {fields.some(([, f]) => f.type === 'string' && f.secret) ? <Callout icon="eye-off" className="ts-small">{t('已保存的密钥显示为 ********；不修改就会保留原值。')}</Callout> : null}
      {isAdmin ? <Button type="submit" intent="primary" icon="floppy-disk" text={t('保存设置')} loading={busy} disabled={parsedUrl === undefined} className="ts-gap-top" data-testid="plugin-settings-save" /> : null}
    </form>
  );
}
