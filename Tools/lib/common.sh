# Shared by Tools/serve, Tools/test and Tools/pgcluster: installs what is missing and runs a
# project-local PostgreSQL. Source it; it defines functions only.

say() { printf '%s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# apt_install PACKAGE...: installs Debian packages (as root, or through sudo -n). The package lists
# are refreshed first: a fresh machine may have none, and then every install fails.
apt_install() {
  say "installing $* ..."
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  $sudo apt-get update -qq >/dev/null && \
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null || \
    die "could not install $*; install them and run again"
}

# Installs the Debian packages we need when they are missing.
ensure_packages() {
  local missing=()
  pkg-config --exists libpq 2>/dev/null || missing+=(libpq-dev pkg-config)
  [ -n "$(pg_bindir)" ] || missing+=(postgresql postgresql-contrib)
  command -v python3 >/dev/null || missing+=(python3)
  command -v runuser >/dev/null || missing+=(util-linux)
  command -v curl >/dev/null || missing+=(curl)
  python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
}

# ensure_command COMMAND PACKAGE: installs PACKAGE when COMMAND is not on the PATH.
ensure_command() {
  command -v "$1" >/dev/null || apt_install "$2"
}

# localstripe, the stateful Stripe fake the payment tests run against (PyPI).
# It is run as `python3 -m localstripe`, so no console-script shim (pyenv's, say) is needed.
ensure_localstripe() {
  python3 -c 'import localstripe' 2>/dev/null && return 0
  say "installing localstripe (pip) ..."
  python3 -m pip install -q localstripe >/dev/null 2>&1 || die "could not pip install localstripe"
  python3 -c 'import localstripe' 2>/dev/null || die "localstripe installed but cannot be imported"
}

# start_localstripe PORT LOG: runs localstripe on 127.0.0.1:PORT in the background, waits until
# it answers, and prints its pid.
start_localstripe() {
  local port=$1 log=$2
  python3 -m localstripe --port "$port" --from-scratch >"$log" 2>&1 &
  local pid=$!
  for _ in $(seq 100); do
    curl -fs -u sk_test_storefront: "http://127.0.0.1:$port/v1/payment_intents" >/dev/null 2>&1 && { echo "$pid"; return 0; }
    sleep 0.1
  done
  tail -20 "$log" >&2
  die "localstripe did not start"
}

# start_media_server PORT DIRECTORY LOG: runs Tools/media-server (the media API for development
# and tests) on 127.0.0.1:PORT storing files in DIRECTORY, waits until it answers, prints its pid.
start_media_server() {
  local port=$1 directory=$2 log=$3
  python3 "$(dirname "${BASH_SOURCE[0]}")/../media-server" --port "$port" --directory "$directory" >"$log" 2>&1 &
  local pid=$!
  for _ in $(seq 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/photo/none" 2>/dev/null && { echo "$pid"; return 0; }
    sleep 0.1
  done
  tail -20 "$log" >&2
  die "the media server did not start"
}

# The newest installed PostgreSQL server's bin directory (Debian keeps them out of PATH).
pg_bindir() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$dir/pg_ctl" ] && { echo "$dir"; return 0; }
  done
  command -v pg_ctl >/dev/null && dirname "$(command -v pg_ctl)"
}

# PostgreSQL refuses to run as root: as root we run its programs as the postgres user, from /
# (the caller's directory may be one that user cannot enter, such as a clone under /root).
as_db_user() {
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# db_user_can_reach DIR: whether the user PostgreSQL runs as can enter DIR's parent, so that a
# cluster can live in DIR.
db_user_can_reach() {
  [ "$(id -u)" -ne 0 ] && return 0
  local parent
  parent=$(dirname "$1")
  mkdir -p "$parent"
  as_db_user test -x "$parent" -a -r "$parent"
}

# cluster_dir ROOT: where the project checked out at ROOT keeps its PostgreSQL data:
# ROOT/.data/postgres, or, when the postgres user cannot reach that (run as root from a clone
# under a directory only root may enter, such as /root), /var/lib/storefront/<name>-<hash of
# ROOT>/postgres, owned by that user.
cluster_dir() {
  local root=$1
  if db_user_can_reach "$root/.data/postgres"; then
    echo "$root/.data/postgres"
  else
    local key
    key=$(printf '%s' "$root" | sha256sum | cut -c1-12)
    mkdir -p "/var/lib/storefront/$(basename "$root")-$key"
    chmod 755 /var/lib/storefront "/var/lib/storefront/$(basename "$root")-$key"
    echo "/var/lib/storefront/$(basename "$root")-$key/postgres"
  fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_cluster DIR PORT [fast]: initialises DIR when empty and starts a server on 127.0.0.1:PORT
# with user `storefront` (trust auth, loopback only). "fast" turns off durability, for tests.
start_cluster() {
  local dir=$1 port=$2 mode=${3:-durable} bin
  bin=$(pg_bindir) || die "no PostgreSQL server found"
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir" && chmod 700 "$dir"
  if [ ! -f "$dir/PG_VERSION" ]; then
    as_db_user "$bin/initdb" -D "$dir" -U storefront --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir.initdb.log" 2>&1 \
      || { cat "$dir.initdb.log" >&2; die "initdb failed"; }
  fi
  local options="-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400"
  [ "$mode" = fast ] && options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  as_db_user "$bin/pg_ctl" -D "$dir" -o "$options" -l "$dir/server.log" -w -t 30 start >/dev/null \
    || { tail -20 "$dir/server.log" >&2; die "PostgreSQL did not start"; }
}

stop_cluster() {
  local dir=$1 bin
  bin=$(pg_bindir) || return 0
  [ -f "$dir/postmaster.pid" ] && as_db_user "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null 2>&1
  return 0
}

# start_pgbouncer DIR PORT DB_PORT SERVER_CONNECTIONS: runs PgBouncer (apt) in transaction mode on
# 127.0.0.1:PORT in front of the PostgreSQL on 127.0.0.1:DB_PORT (trust authentication, as
# start_cluster sets up), with at most SERVER_CONNECTIONS server sessions per database, waits until
# it answers. It runs as the database user (it refuses to run as root), its files in DIR;
# stop_pgbouncer DIR stops it. The clients must be told (DATABASE_POOLER=transaction, README
# "Scaling out").
start_pgbouncer() {
  local dir=$1 port=$2 db_port=$3 size=$4 bin
  # Debian installs it in /usr/sbin, which a user's PATH often lacks.
  bin=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
  [ -x "$bin" ] || { apt_install pgbouncer; bin=$(command -v pgbouncer || echo /usr/sbin/pgbouncer); }
  [ -x "$bin" ] || die "pgbouncer is missing (apt-get install pgbouncer)"
  mkdir -p "$dir"
  printf '"storefront" ""\n' >"$dir/users.txt"
  cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$db_port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/users.txt
stats_users = storefront
pool_mode = transaction
default_pool_size = $size
max_client_conn = 2000
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
  [ "$(id -u)" -eq 0 ] && chown -R postgres "$dir"
  as_db_user "$bin" -d "$dir/pgbouncer.ini" >"$dir/start.log" 2>&1 \
    || { cat "$dir/start.log" >&2; tail -20 "$dir/pgbouncer.log" >&2 2>/dev/null; die "PgBouncer did not start"; }
  for _ in $(seq 100); do
    psql -h 127.0.0.1 -p "$port" -U storefront -d postgres -qtAc "SELECT 1" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  tail -20 "$dir/pgbouncer.log" >&2
  die "PgBouncer did not start"
}

stop_pgbouncer() {
  local pid
  [ -f "$1/pgbouncer.pid" ] || return 0
  pid=$(cat "$1/pgbouncer.pid")
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  return 0
}

# pool_role_settings PORT: the storefront role's session defaults, which connections through a
# transaction pooler do not send themselves (see PostgresPool.checkPooledSessionSettings).
pool_role_settings() {
  psql -h 127.0.0.1 -p "$1" -U storefront -d postgres -v ON_ERROR_STOP=1 -q \
    -c "ALTER ROLE storefront SET TimeZone = 'UTC'" -c "ALTER ROLE storefront SET DateStyle = 'ISO'" \
    -c "ALTER ROLE storefront SET statement_timeout = '5s'" -c "ALTER ROLE storefront SET lock_timeout = '2s'" \
    -c "ALTER ROLE storefront SET client_min_messages = 'warning'"
}

# create_database PORT NAME: creates NAME unless it exists.
create_database() {
  local port=$1 name=$2
  psql -h 127.0.0.1 -p "$port" -U storefront -d postgres -v ON_ERROR_STOP=1 -qtA \
    -c "SELECT 1 FROM pg_database WHERE datname = '$name'" | grep -q 1 || \
    psql -h 127.0.0.1 -p "$port" -U storefront -d postgres -v ON_ERROR_STOP=1 -q -c "CREATE DATABASE \"$name\""
}
