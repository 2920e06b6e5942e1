#!/usr/bin/env bash
# Start a throw-away PostgreSQL server from Debian's packages for the storage tests and print
# its URL. Usage: export KUMITE_TEST_POSTGRES_URL=$(scripts/start-postgres.sh)
set -euo pipefail
PORT=${PGPORT_TEST:-55432}
if [ -z "${PGPORT_TEST:-}" ]; then
    # The default port may be taken (another server, an earlier run): take the next free one.
    while (: </dev/tcp/127.0.0.1/"$PORT") 2>/dev/null; do PORT=$((PORT + 1)); done
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
DIR=$(mktemp -d /tmp/kumite-pg.XXXXXX)
if [ "$(id -u)" = 0 ]; then
    chown postgres "$DIR"
    AS=(runuser -u postgres --)
else
    AS=()
fi
"${AS[@]}" "$PGBIN/initdb" -D "$DIR/data" -A trust -U postgres >/dev/null
"${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -o "-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=on" \
    -l "$DIR/log" -w start >/dev/null
"$PGBIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE kumite_test" >/dev/null
echo "postgresql+psycopg://postgres@127.0.0.1:$PORT/kumite_test"
