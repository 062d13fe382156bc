#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1:5432 for the store's tests: installs Debian's
# postgresql when missing, creates and starts its cluster, and creates the role the tests log in as
# (CREATEDB: each test file makes and drops its own database). Prints the URL to export as
# SPEEDGATE_TEST_DATABASE_URL on its last line.
set -euo pipefail
# Only the URL may reach stdout: the caller captures it whole, and the tools below print notes there
# (pg_ctlcluster says "Removed stale pid file." after an unclean shutdown), which made the URL
# unparseable. Everything goes to stderr; the URL is written to the saved stdout at the end.
exec 3>&1 1>&2
ROLE=speedgate_test
PASSWORD=speedgate_test
if ! command -v pg_lsclusters >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "postgres: installing postgresql" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
cluster="$(pg_lsclusters -h | awk 'NR==1 {print $1" "$2}')"
if [ -z "$cluster" ]; then
  version="$(ls /usr/lib/postgresql | sort -n | tail -n 1)"
  echo "postgres: creating cluster $version main" >&2
  pg_createcluster "$version" main >/dev/null
  cluster="$version main"
fi
read -r version name <<<"$cluster"
port="$(pg_lsclusters -h | awk -v v="$version" -v n="$name" '$1==v && $2==n {print $3}')"
status="$(pg_lsclusters -h | awk -v v="$version" -v n="$name" '$1==v && $2==n {print $4}')"
if [ "$status" != "online" ]; then
  # A server killed without a shutdown (a machine snapshot, an OOM kill) leaves its socket lock behind
  # and postgres refuses to start while it exists; drop it when the PID it names is gone.
  lock="/var/run/postgresql/.s.PGSQL.$port.lock"
  if [ -f "$lock" ] && ! kill -0 "$(head -n 1 "$lock")" 2>/dev/null; then
    echo "postgres: removing the stale socket lock $lock" >&2
    rm -f "$lock" "/var/run/postgresql/.s.PGSQL.$port"
  fi
  echo "postgres: starting cluster $version $name on port $port" >&2
  # 3>&-: the server would otherwise inherit the caller's stdout and hold its $(...) open forever.
  pg_ctlcluster "$version" "$name" start 3>&-
fi
for _ in $(seq 1 60); do
  if su postgres -c "psql -p $port -tAc 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 0.5
done
su postgres -c "psql -p $port -v ON_ERROR_STOP=1 -q" <<SQL >&2
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
  END IF;
END
\$\$;
SQL
echo "postgres: cluster $version $name answers on 127.0.0.1:$port" >&2
echo "postgres://$ROLE:$PASSWORD@127.0.0.1:$port/postgres" >&3
