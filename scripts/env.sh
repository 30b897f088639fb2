# Sourced by ./run and .ci/run: brings Node 24, apt packages and npm dependencies when missing.
# Safe to source repeatedly; every step is skipped when already satisfied.
TAGSONIC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_MAJOR=24

log() { printf '[tagsonic] %s\n' "$*" >&2; }

ensure_node() {
  local have=""
  if command -v node >/dev/null 2>&1; then have="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)"; fi
  if [ -n "$have" ] && [ "$have" -ge "$NODE_MAJOR" ] 2>/dev/null && [ -z "${TAGSONIC_FORCE_LOCAL_NODE:-}" ]; then
    export npm_config_nodedir="$(cd "$(dirname "$(command -v node)")/.." && pwd)"
    return 0
  fi
  local arch pkg home
  case "$(uname -m)" in
    x86_64|amd64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) log "unsupported CPU $(uname -m): install Node $NODE_MAJOR yourself"; return 1 ;;
  esac
  pkg="node-linux-$arch"
  home="$TAGSONIC_ROOT/.tools/node/node_modules/$pkg"
  if [ ! -x "$home/bin/node" ]; then
    command -v npm >/dev/null 2>&1 || { log "npm is required to fetch Node $NODE_MAJOR"; return 1; }
    log "fetching Node $NODE_MAJOR ($pkg) from the npm registry"
    mkdir -p "$TAGSONIC_ROOT/.tools/node"
    npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$TAGSONIC_ROOT/.tools/node" "$pkg@$NODE_MAJOR" >&2 || return 1
  fi
  export PATH="$home/bin:$PATH"
  # The machine's npm config may name /usr (old headers) as nodedir: native addons must build for this Node.
  export npm_config_nodedir="$home"
}

# ensure_apt BINARY:PACKAGE ... — installs the packages whose binaries are missing (root + apt only).
ensure_apt() {
  local missing=() pair bin pkg
  for pair in "$@"; do
    bin="${pair%%:*}"; pkg="${pair#*:}"
    command -v "$bin" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing ${missing[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || return 1
  else
    log "missing system packages: ${missing[*]} (install them with your package manager)"
    return 1
  fi
}

ensure_npm_deps() {
  local stamp="$TAGSONIC_ROOT/node_modules/.tagsonic-installed"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$TAGSONIC_ROOT/package-lock.json" ] \
     && [ "$(cat "$stamp")" = "$(node -p process.versions.modules)" ]; then
    return 0
  fi
  log "installing npm dependencies (npm ci)"
  (cd "$TAGSONIC_ROOT" && npm ci --no-audit --no-fund --loglevel=error >&2) || return 1
  node -p process.versions.modules > "$stamp"
}
