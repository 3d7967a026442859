#!/bin/sh
# Runs a command on the product's Node (decision 0095): the one `npm ci` fetched into
# node_modules/.runtime when the machine's Node is older than 22.13, else the machine's own.
# Native builds (node-gyp) then use the runtime's headers, never a download of their own.
# Sourced with no command (scripts/test.sh), it only sets the environment. BASH_SOURCE: this file when sourced by bash.
dir="$(cd "$(dirname "${BASH_SOURCE:-$0}")/.." && pwd)/node_modules/.runtime"
if [ -x "$dir/bin/node" ]; then
  PATH="$dir/bin:$PATH"
  npm_config_nodedir="$dir"
  export PATH npm_config_nodedir
fi
exec "$@"
