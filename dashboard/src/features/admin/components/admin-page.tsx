import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Callout, HTMLTable, NonIdealState, Spinner, Tag } from '../../../components/ui/display.tsx';
import { Checkbox, FormGroup, HTMLSelect, InputGroup } from '../../../components/ui/form.tsx';
import { Menu, MenuDivider, MenuItem, Popover } from '../../../components/ui/menu.tsx';
import { Alert, Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { useFormatDateTime } from '../../../lib/dates.ts';
import { useT } from '../../../lib/i18n.ts';
import { useSession } from '../../../stores/session-store.ts';
import { clearSubsonicPassword } from '../api/clear-subsonic-password.ts';
import { createApiKey } from '../api/create-api-key.ts';
import { createUser } from '../api/create-user.ts';
import { deleteApiKey } from '../api/delete-api-key.ts';
import { deleteUser } from '../api/delete-user.ts';
import { listApiKeys } from '../api/list-api-keys.ts';
import { listRadioStations } from '../api/list-radio-stations.ts';
import { listUsers } from '../api/list-users.ts';
import { resetPassword } from '../api/reset-password.ts';
import { setAdmin } from '../api/set-admin.ts';
import { setRole } from '../api/set-role.ts';
import { setSubsonicPassword } from '../api/set-subsonic-password.ts';
import type { AdminRadioStation, AdminUser, ApiKey } from '../api/types.ts';

type Modal =
  | { kind: 'create' }
  | { kind: 'password'; user: AdminUser }
  | { kind: 'subsonic'; user: AdminUser }
  | { kind: 'role'; user: AdminUser }
  | { kind: 'keys'; user: AdminUser }
  | { kind: 'delete'; user: AdminUser }
  | null;

/** The admin backend (/admin/): users, their editions and passwords, Subsonic passwords and API keys; the radio stations. */
export function AdminPage() {
  const t = useT();
  const date = useFormatDateTime();
  const me = useSession((s) => s.user);
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [modal, setModal] = useState<Modal>(null);

  const reload = useCallback(async () => {
    try {
      setUsers(await listUsers());
      setRefused(null);
    } catch (e) {
      setRefused(isApiError(e) ? e.message : String(e));
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const done = () => {
    setModal(null);
    void reload();
  };

  if (refused) {
    return (
      <div className="ts-page">
        <NonIdealState icon="shield" title={t('管理后台')} description={t('只有管理员可以使用管理后台。')} action={<span className="ts-muted">{refused}</span>} />
        <ActivationHelp />
      </div>
    );
  }

  return (
    <div className="ts-page ts-admin" data-testid="admin-page">
      <div className="ts-page-head">
        <h2>{t('管理后台')}</h2>
        <Button intent="primary" icon="new-person" text={t('新建用户')} onClick={() => setModal({ kind: 'create' })} />
      </div>
      {users === null ? (
        <Spinner />
      ) : (
        <div className="ts-scroll-x">
          <HTMLTable striped interactive className="ts-admin-table">
            <thead>
              <tr>
                <th>{t('用户名')}</th>
                <th>{t('版本')}</th>
                <th>{t('管理员')}</th>
                <th>{t('Subsonic 密码')}</th>
                <th>{t('API 密钥')}</th>
                <th>{t('创建时间')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} data-user={u.username}>
                  <td>
                    <strong>{u.username}</strong>
                    {u.username === me?.username ? <span className="ts-muted"> ({t('我')})</span> : null}
                  </td>
                  <td>
                    <Tag intent={u.effective_role === 'V2' ? 'success' : 'none'} minimal>
                      {u.effective_role}
                    </Tag>{' '}
                    <span className="ts-muted ts-small">
                      {u.role === 'V2' ? (u.is_forever ? t('永久') : u.active_until ? t('至 {date}', { date: u.active_until.slice(0, 10) }) : '') : ''}
                    </span>
                  </td>
                  <td>{u.is_admin ? '✓' : ''}</td>
                  <td>{u.has_subsonic_password ? t('已设置') : <span className="ts-muted">{t('未设置')}</span>}</td>
                  <td>{u.api_key_count}</td>
                  <td className="ts-small">{date(u.created_at)}</td>
                  <td>
                    <Popover
                      placement="bottom-end"
                      content={
                        <Menu>
                          <MenuItem icon="key" text={t('版本 / 有效期')} onClick={() => setModal({ kind: 'role', user: u })} />
                          <MenuItem
                            icon="shield"
                            text={u.is_admin ? t('取消管理员') : t('设为管理员')}
                            disabled={u.username === me?.username}
                            onClick={() => void setAdmin(u.username, !u.is_admin).then(reload, () => undefined)}
                          />
                          <MenuItem icon="lock" text={t('重置密码')} onClick={() => setModal({ kind: 'password', user: u })} />
                          <MenuDivider />
                          <MenuItem icon="music" text={t('Subsonic 密码')} onClick={() => setModal({ kind: 'subsonic', user: u })} />
                          <MenuItem icon="key" text={t('API 密钥')} onClick={() => setModal({ kind: 'keys', user: u })} />
                          <MenuDivider />
                          <MenuItem icon="trash" intent="danger" text={t('删除用户')} disabled={u.username === me?.username} onClick={() => setModal({ kind: 'delete', user: u })} />
                        </Menu>
                      }
                    >
                      <Button size="small" variant="minimal" icon="more" aria-label={t('操作')} />
                    </Popover>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      <Callout icon="info-sign" className="ts-gap-top">
        {t('Subsonic 客户端和顶部搜索使用 Subsonic 密码登录；专辑和艺术家列表需要先为账号设置它。')}
      </Callout>
      <RadioStations />
      <ActivationHelp />

      {modal?.kind === 'create' ? <CreateUserDialog onClose={() => setModal(null)} onDone={done} /> : null}
      {modal?.kind === 'password' ? <PasswordDialog user={modal.user} onClose={() => setModal(null)} onDone={done} /> : null}
      {modal?.kind === 'subsonic' ? <SubsonicDialog user={modal.user} onClose={() => setModal(null)} onDone={done} /> : null}
      {modal?.kind === 'role' ? <RoleDialog user={modal.user} onClose={() => setModal(null)} onDone={done} /> : null}
      {modal?.kind === 'keys' ? <KeysDialog user={modal.user} onClose={done} /> : null}
      <Alert
        isOpen={modal?.kind === 'delete'}
        intent="danger"
        icon="trash"
        confirmButtonText={t('删除')}
        cancelButtonText={t('取消')}
        onCancel={() => setModal(null)}
        onConfirm={() => modal?.kind === 'delete' && void deleteUser(modal.user.username).then(done, () => undefined)}
      >
        {modal?.kind === 'delete' ? t('确定删除用户 {name}？', { name: modal.user.username }) : null}
      </Alert>
    </div>
  );
}

/** The internet radio stations every Subsonic client shows; administrators manage them from a client. */
function RadioStations() {
  const t = useT();
  const [stations, setStations] = useState<AdminRadioStation[] | null>(null);
  useEffect(() => void listRadioStations().then(setStations, () => setStations([])), []);
  return (
    <section className="ts-gap-top" data-testid="radio-stations">
      <h3>{t('网络电台')}</h3>
      <p className="ts-muted">{t('管理员在 Subsonic 客户端中添加、修改和删除电台；所有用户的客户端都会列出它们。')}</p>
      {stations === null ? (
        <Spinner />
      ) : stations.length === 0 ? (
        <p className="ts-muted">{t('还没有网络电台。')}</p>
      ) : (
        <div className="ts-scroll-x">
          <HTMLTable compact striped className="ts-admin-table">
            <thead>
              <tr>
                <th>{t('名称')}</th>
                <th>{t('流地址')}</th>
                <th>{t('主页')}</th>
              </tr>
            </thead>
            <tbody>
              {stations.map((s) => (
                <tr key={s.id} data-station={s.id}>
                  <td>{s.name}</td>
                  <td>
                    <code className="ts-break">{s.stream_url}</code>
                  </td>
                  <td>
                    {s.home_page_url ? (
                      <a href={s.home_page_url} target="_blank" rel="noreferrer noopener">
                        {s.home_page_url}
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </section>
  );
}

/** How V2 activation codes are made: on the server, by its administrator. */
function ActivationHelp() {
  const t = useT();
  return (
    <section id="activation" className="ts-gap-top">
      <h3>{t('激活码')}</h3>
      <p>{t('激活码由服务器管理员在服务器上生成，只对本服务器有效：')}</p>
      <pre className="ts-code">
        {[`./run license issue            # ${t('V2，默认 365 天')}`, `./run license issue --days 30  # ${t('30 天')}`, `./run license issue --forever  # ${t('永久')}`].join('\n')}
      </pre>
      <p className="ts-muted">{t('用户在“激活 V2”对话框中输入激活码；管理员也可以在上方直接修改用户的版本。')}</p>
    </section>
  );
}

function CreateUserDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const t = useT();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRoleValue] = useState<'V1' | 'V2'>('V1');
  const [admin, setAdminValue] = useState(false);
  const ok = username.trim() !== '' && password !== '';
  return (
    <Dialog isOpen onClose={onClose} title={t('新建用户')} icon="new-person">
      <DialogBody>
        <FormGroup label={t('用户名')} labelFor="ts-new-username">
          <InputGroup id="ts-new-username" value={username} onValueChange={setUsername} autoFocus />
        </FormGroup>
        <FormGroup label={t('密码')} labelFor="ts-new-password">
          <InputGroup id="ts-new-password" type="password" value={password} onValueChange={setPassword} autoComplete="new-password" />
        </FormGroup>
        <FormGroup label={t('版本')} labelFor="ts-new-role">
          <HTMLSelect id="ts-new-role" value={role} onChange={(e) => setRoleValue(e.currentTarget.value as 'V1' | 'V2')} options={['V1', 'V2']} />
        </FormGroup>
        <Checkbox checked={admin} label={t('管理员')} onChange={(e) => setAdminValue(e.currentTarget.checked)} />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="primary" text={t('创建')} disabled={!ok} onClick={() => void createUser({ username: username.trim(), password, role, is_admin: admin }).then(onDone, () => undefined)} />
          </>
        }
      />
    </Dialog>
  );
}

function PasswordDialog({ user, onClose, onDone }: { user: AdminUser; onClose: () => void; onDone: () => void }) {
  const t = useT();
  const [a, setA] = useState('');
  const [b, setB] = useState('');
  const mismatch = b !== '' && a !== b;
  return (
    <Dialog isOpen onClose={onClose} title={t('重置 {name} 的密码', { name: user.username })} icon="lock">
      <DialogBody>
        <FormGroup label={t('新密码')} labelFor="ts-reset-a">
          <InputGroup id="ts-reset-a" type="password" value={a} onValueChange={setA} autoFocus autoComplete="new-password" />
        </FormGroup>
        <FormGroup label={t('再次输入')} labelFor="ts-reset-b" intent={mismatch ? 'danger' : 'none'} helperText={mismatch ? t('两次输入的密码不一致') : undefined}>
          <InputGroup id="ts-reset-b" type="password" value={b} onValueChange={setB} autoComplete="new-password" intent={mismatch ? 'danger' : 'none'} />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="primary" text={t('确定')} disabled={a === '' || a !== b} onClick={() => void resetPassword(user.username, a).then(onDone, () => undefined)} />
          </>
        }
      />
    </Dialog>
  );
}

function SubsonicDialog({ user, onClose, onDone }: { user: AdminUser; onClose: () => void; onDone: () => void }) {
  const t = useT();
  const [password, setPassword] = useState('');
  return (
    <Dialog isOpen onClose={onClose} title={t('{name} 的 Subsonic 密码', { name: user.username })} icon="music">
      <DialogBody>
        <p className="ts-muted">{t('Subsonic 协议要求服务器能还原密码，因此它与登录密码分开保存。')}</p>
        <FormGroup label={t('Subsonic 密码')} labelFor="ts-subsonic">
          <InputGroup id="ts-subsonic" type="password" value={password} onValueChange={setPassword} autoFocus autoComplete="new-password" />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {user.has_subsonic_password ? <Button intent="danger" variant="minimal" text={t('清除')} onClick={() => void clearSubsonicPassword(user.username).then(onDone, () => undefined)} /> : null}
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="primary" text={t('保存')} disabled={password === ''} onClick={() => void setSubsonicPassword(user.username, password).then(onDone, () => undefined)} />
          </>
        }
      />
    </Dialog>
  );
}

function RoleDialog({ user, onClose, onDone }: { user: AdminUser; onClose: () => void; onDone: () => void }) {
  const t = useT();
  const [role, setRoleValue] = useState<'V1' | 'V2'>(user.role === 'V2' ? 'V2' : 'V1');
  const [until, setUntil] = useState(user.active_until ? user.active_until.slice(0, 10) : '');
  return (
    <Dialog isOpen onClose={onClose} title={t('{name} 的版本', { name: user.username })} icon="key">
      <DialogBody>
        <FormGroup label={t('版本')} labelFor="ts-role">
          <HTMLSelect id="ts-role" value={role} onChange={(e) => setRoleValue(e.currentTarget.value as 'V1' | 'V2')} options={['V1', 'V2']} />
        </FormGroup>
        {role === 'V2' ? (
          <FormGroup label={t('有效期至（留空为永久）')} labelFor="ts-until">
            <InputGroup id="ts-until" type="date" value={until} onValueChange={setUntil} />
          </FormGroup>
        ) : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button
              intent="primary"
              text={t('保存')}
              onClick={() => void setRole(user.username, role, role === 'V2' && until ? new Date(`${until}T23:59:59Z`).toISOString() : null).then(onDone, () => undefined)}
            />
          </>
        }
      />
    </Dialog>
  );
}

function KeysDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const t = useT();
  const date = useFormatDateTime();
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [name, setName] = useState('');
  const [fresh, setFresh] = useState<string | null>(null);
  const load = useCallback(() => listApiKeys(user.username).then(setKeys, () => setKeys([])), [user.username]);
  useEffect(() => void load(), [load]);

  return (
    <Dialog isOpen onClose={onClose} title={t('{name} 的 API 密钥', { name: user.username })} icon="key" style={{ width: 'min(640px, 94vw)' }}>
      <DialogBody>
        {fresh ? (
          <Callout intent="success" icon="key" title={t('新密钥（只显示这一次）')}>
            <code className="ts-break" data-testid="new-api-key">
              {fresh}
            </code>
          </Callout>
        ) : null}
        {keys === null ? (
          <Spinner />
        ) : keys.length === 0 ? (
          <p className="ts-muted">{t('还没有 API 密钥。')}</p>
        ) : (
          <HTMLTable compact striped>
            <thead>
              <tr>
                <th>{t('名称')}</th>
                <th>{t('前缀')}</th>
                <th>{t('创建时间')}</th>
                <th>{t('最后使用')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td className="ts-small">{date(k.created_at)}</td>
                  <td className="ts-small">{k.last_used_at ? date(k.last_used_at) : '—'}</td>
                  <td>
                    <Button size="small" variant="minimal" icon="trash" intent="danger" aria-label={t('删除')} onClick={() => void deleteApiKey(user.username, k.id).then(load, () => undefined)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
        <form
          className="ts-row ts-gap-top"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim() === '') return;
            void createApiKey(user.username, name.trim()).then(
              (k) => {
                setFresh(k.key);
                setName('');
                void load();
              },
              () => undefined,
            );
          }}
        >
          <InputGroup className="ts-grow" placeholder={t('新密钥的名称，例如 手机客户端')} value={name} onValueChange={setName} />
          <Button type="submit" icon="add" text={t('创建密钥')} disabled={name.trim() === ''} />
        </form>
      </DialogBody>
      <DialogFooter actions={<Button text={t('关闭')} onClick={onClose} />} />
    </Dialog>
  );
}
