#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1:5432 for the store's tests: installs Debian's
# postgresql when missing, creates and starts its cluster, and creates the role the tests log in as
# (CREATEDB: each test file makes and drops its own database). Prints the URL to export as
# SPEEDGATE_TEST_DATABASE_URL on its last line.
set -euo pipefail
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
  echo "postgres: starting cluster $version $name on port $port" >&2
  pg_ctlcluster "$version" "$name" start
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
echo "postgres://$ROLE:$PASSWORD@127.0.0.1:$port/postgres"
