/**
 * The manifest's host allow-list: a grant names one host exactly ("musicbrainz.org") or every subdomain of
 * one ("*.archive.org", which does not include "archive.org" itself, as in a TLS wildcard).
 */

/** One `permissions.http.hosts` entry of a plugin's manifest. */
export interface HostGrant {
  host: string;
  reason: string;
}

/** Lower case, no trailing dot, IPv6 without brackets: the form hosts are compared in. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** The grant that lets a plugin reach `host`, or null. */
export function grantFor(host: string, grants: readonly HostGrant[]): HostGrant | null {
  const h = normalizeHost(host);
  for (const g of grants) {
    const pattern = normalizeHost(g.host);
    if (pattern.startsWith('*.')) {
      const suffix = pattern.slice(1); // ".example.com"
      if (h.length > suffix.length && h.endsWith(suffix)) return g;
    } else if (h === pattern) {
      return g;
    }
  }
  return null;
}
