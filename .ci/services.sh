#!/usr/bin/env bash
# Private MariaDB and Redis on 127.0.0.1 for CI when the machine has none: installed with apt,
# data under $SVC_DIR, stopped by PID. Usage: services.sh install | start-mariadb | start-redis |
# start-replication (a primary with a binary log and its replica) | stop
# (install: only the packages, for the fault-injection tests, which start and stop servers of their own)
# (The recipe verified in shared/TOOLCHAIN.md.)
set -euo pipefail
SVC_DIR=${SVC_DIR:?}
DB_PORT=${DB_PORT:-3307}
REDIS_PORT=${REDIS_PORT:-6380}
DB_NAME=${DB_NAME:-hr_ci}
DB_USER=${DB_USER:-hr}
DB_PASS=${DB_PASS:-hr}
MY="$SVC_DIR/mysql"

wait_for() { # wait_for <seconds> <command...>
  local n=$(($1 * 4))
  shift
  for _ in $(seq 1 "$n"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.25; done
  return 1
}

install_pkgs() {
  local need=()
  command -v mariadbd >/dev/null 2>&1 || need+=(mariadb-server)
  command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
  if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  fi
}

start_mariadb() {
  mkdir -p "$MY"
  chown mysql:mysql "$MY"
  if [ ! -d "$MY/data/mysql" ]; then
    mariadb-install-db --user=mysql --datadir="$MY/data" --auth-root-authentication-method=socket --skip-test-db >"$MY/install.log" 2>&1
  fi
  # --no-defaults must come first: nothing from /etc/mysql (port, socket) leaks in.
  setsid mariadbd --no-defaults --user=mysql --datadir="$MY/data" \
    --socket="$MY/mysqld.sock" --pid-file="$MY/mysqld.pid" \
    --bind-address=127.0.0.1 --port="$DB_PORT" --skip-name-resolve \
    --log-error="$MY/error.log" --innodb-buffer-pool-size=128M \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
    </dev/null >/dev/null 2>&1 &
  wait_for 60 mariadb-admin --socket="$MY/mysqld.sock" ping || { tail -20 "$MY/error.log"; exit 1; }
  mariadb --socket="$MY/mysqld.sock" <<SQL
CREATE DATABASE IF NOT EXISTS \`$DB_NAME\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASS';
CREATE USER IF NOT EXISTS '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASS';
-- all databases: the character-set test makes (and drops) a latin1 database of its own
GRANT ALL ON *.* TO '$DB_USER'@'127.0.0.1';
GRANT ALL ON *.* TO '$DB_USER'@'localhost';
SQL
}

start_redis() {
  mkdir -p "$SVC_DIR"
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes \
    --pidfile "$SVC_DIR/redis.pid" --logfile "$SVC_DIR/redis.log" \
    --save '' --appendonly no --dir "$SVC_DIR"
  wait_for 20 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping || { tail -20 "$SVC_DIR/redis.log"; exit 1; }
}

# A primary writing a binary log and a replica of it (read replicas, issue 48), each a private
# mariadbd of its own: the machine's shared MariaDB writes no binary log, and a replica needs one.
PRIMARY_PORT=${PRIMARY_PORT:-3309}
REPLICA_PORT=${REPLICA_PORT:-3310}
start_instance() { # start_instance <dir> <port> <extra mariadbd options...>
  local dir=$1 port=$2
  shift 2
  mkdir -p "$dir"
  chown mysql:mysql "$dir"
  [ -d "$dir/data/mysql" ] || mariadb-install-db --user=mysql --datadir="$dir/data" --auth-root-authentication-method=socket --skip-test-db >"$dir/install.log" 2>&1
  setsid mariadbd --no-defaults --user=mysql --datadir="$dir/data" \
    --socket="$dir/mysqld.sock" --pid-file="$dir/mysqld.pid" \
    --bind-address=127.0.0.1 --port="$port" --skip-name-resolve \
    --log-error="$dir/error.log" --innodb-buffer-pool-size=128M \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci "$@" \
    </dev/null >/dev/null 2>&1 &
  wait_for 60 mariadb-admin --socket="$dir/mysqld.sock" ping || { tail -20 "$dir/error.log"; exit 1; }
}

start_replication() {
  start_instance "$SVC_DIR/mysql-primary" "$PRIMARY_PORT" --server-id=1 --log-bin=hr-bin --binlog-format=ROW
  mariadb --socket="$SVC_DIR/mysql-primary/mysqld.sock" <<SQL
CREATE USER IF NOT EXISTS 'repl'@'127.0.0.1' IDENTIFIED BY 'repl';
GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1';
CREATE USER IF NOT EXISTS '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASS';
GRANT ALL ON *.* TO '$DB_USER'@'127.0.0.1';
CREATE DATABASE IF NOT EXISTS \`$DB_NAME\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
SQL
  # The replica takes everything the primary logged from its start (the users and the database above too).
  start_instance "$SVC_DIR/mysql-replica" "$REPLICA_PORT" --server-id=2 --read-only=1
  mariadb --socket="$SVC_DIR/mysql-replica/mysqld.sock" <<SQL
CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$PRIMARY_PORT, MASTER_USER='repl', MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos;
START SLAVE;
SQL
  wait_for 30 bash -c "mariadb --socket='$SVC_DIR/mysql-replica/mysqld.sock' -e 'SHOW SLAVE STATUS\\G' | grep -q 'Slave_SQL_Running: Yes'" \
    || { mariadb --socket="$SVC_DIR/mysql-replica/mysqld.sock" -e 'SHOW SLAVE STATUS\G'; exit 1; }
  wait_for 30 mariadb --socket="$SVC_DIR/mysql-replica/mysqld.sock" -e "USE \`$DB_NAME\`" || { echo "the database did not reach the replica"; exit 1; }
}

stop_pidfile() { # SIGTERM the PID in <file>, wait up to 30 s, then SIGKILL
  local f=$1 pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  fi
  rm -f "$f"
}

case "${1:-}" in
  install) install_pkgs ;;
  start-mariadb) install_pkgs; start_mariadb; echo "private MariaDB pid $(cat "$MY/mysqld.pid") on 127.0.0.1:$DB_PORT" ;;
  start-redis) install_pkgs; start_redis; echo "private Redis pid $(cat "$SVC_DIR/redis.pid") on 127.0.0.1:$REDIS_PORT" ;;
  start-replication) install_pkgs; start_replication
    echo "private MariaDB primary on 127.0.0.1:$PRIMARY_PORT (binary log) and its replica on 127.0.0.1:$REPLICA_PORT" ;;
  stop)
    stop_pidfile "$MY/mysqld.pid"
    stop_pidfile "$SVC_DIR/mysql-replica/mysqld.pid"
    stop_pidfile "$SVC_DIR/mysql-primary/mysqld.pid"
    stop_pidfile "$SVC_DIR/redis.pid" ;;
  *) echo "usage: $0 install|start-mariadb|start-redis|start-replication|stop" >&2; exit 2 ;;
esac
