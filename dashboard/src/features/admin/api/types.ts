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

/** An internet radio station (managed by Subsonic clients; the admin backend lists them). */
export interface AdminRadioStation {
  id: string;
  name: string;
  stream_url: string;
  /** '' when the station has no home page. */
  home_page_url: string;
  created_at: string;
  updated_at: string;
}
