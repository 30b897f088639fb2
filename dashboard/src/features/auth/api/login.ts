import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

export interface LoginAnswer {
  token: string;
  username: string;
  role: 'V1' | 'V2';
}

/** POST /apimt/token/: signs in; the server sets the session and CSRF cookies. */
export async function login(input: { username: string; password: string; code?: string }): Promise<LoginAnswer> {
  const env = await apiCall<{ username: string; role: 'V1' | 'V2' }>('/apimt/token/', {
    body: { username: input.username, password: input.password, code: input.code ?? '' },
    onError: { title: '登录失败！', fallback: '登录失败', timeout: SECONDS.two },
  });
  return { token: env.token ?? '', username: env.data.username, role: env.data.role };
}
