#!/usr/bin/env bash
# Starts a throwaway Postgres cluster on loopback for tests and prints its URL:
#   eval "$(bash scripts/pg-throwaway.sh start /tmp/mc-pg 55432)"   # exports TEST_DATABASE_URL
#   bash scripts/pg-throwaway.sh stop /tmp/mc-pg
# Postgres refuses to run as root, so as root the cluster belongs to the `postgres` user
# (Debian's postgresql package creates it). Trust auth on 127.0.0.1 only; data lives in DIR.
set -euo pipefail
cmd=${1:?start|stop} dir=${2:?data dir} port=${3:-55432}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || bin=$(dirname "$(command -v initdb)")
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "$cmd" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_owner "$bin/initdb" -D "$dir" -U postgres --auth=trust --no-sync -E UTF8 >"/tmp/$(basename "$dir").initdb.log" 2>&1
    fi
    # No unix socket in a shared /var/run; fsync off: a test cluster, thrown away.
    as_owner "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c max_connections=200" start >/dev/null
    echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_owner "$bin/pg_ctl" -D "$dir" -m fast stop >/dev/null || true
    ;;
esac
