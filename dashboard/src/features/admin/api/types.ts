/** The admin API's shapes (gateway/README.md, "Admin backend"). */
export interface AdminUser {
  id: string;
  username: string;
  role: string;
  effective_role: string;
  is_admin: boolean;
  is_forever: boolean;
  active_until: string | null;
  has_subsonic_password: boolean;
  api_key_count: number;
  created_at: string;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}
