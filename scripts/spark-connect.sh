#!/usr/bin/env bash
# A throwaway local Spark Connect server for tests and development.
#
#   scripts/spark-connect.sh check                 # can a server start here? (exit 1 says why)
#   scripts/spark-connect.sh start DIR PORT [OWNER_PID]
#   scripts/spark-connect.sh status DIR
#   scripts/spark-connect.sh stop DIR
#
# `start` runs Spark's SparkConnectServer in local mode (2 cores) from the pyspark package,
# listening on 127.0.0.1:PORT, with its log, warehouse and scratch space in DIR; it waits until
# the port accepts connections (SPARK_CONNECT_START_TIMEOUT seconds, default 240) and prints
# `sc://127.0.0.1:PORT`. With OWNER_PID, a watchdog stops the server when that process ends
# (so a test run that dies leaves no JVM behind). `stop` ends it (SIGTERM, then SIGKILL).
#
# Spark comes from the pyspark package (Spark 4.x bundles the Connect server's jar, no Maven
# download): $SPARK_HOME if set, else the pyspark of $SPARK_PYTHON, of .venv/bin/python in the
# repository, or of python3. Java 17 must be on PATH or in $JAVA_HOME.
#   python3 -m venv .venv && .venv/bin/pip install 'pyspark==4.3.0'
# SPARK_CONNECT_TOKEN, if set, is required from clients (spark.connect.authenticate.token).
# SPARK_CONNECT_WORKERS=N: instead of local mode, a standalone cluster in DIR on loopback, a
# master and N workers of 1 core each started with spark-class, and the server submitted to that
# master (N executors); `stop` and the watchdog end them too. SPARK_CONNECT_UI_PORT=P turns the
# driver's UI and REST API (/api/v1) on, on port P (off otherwise).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"

die() { echo "spark-connect.sh: $*" >&2; exit 1; }

spark_home() {
    if [[ -n "${SPARK_HOME:-}" ]]; then echo "$SPARK_HOME"; return; fi
    local py="${SPARK_PYTHON:-}"
    if [[ -z "$py" && -x "$root/.venv/bin/python" ]]; then py="$root/.venv/bin/python"; fi
    py="${py:-python3}"
    "$py" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))' 2>/dev/null \
        || die "no pyspark for '$py': install it with '$py -m pip install pyspark==4.3.0' (or set SPARK_HOME)"
}

check() {
    local home java
    home="$(spark_home)"
    [[ -x "$home/bin/spark-submit" ]] || die "$home/bin/spark-submit is missing: is pyspark installed completely?"
    ls "$home"/jars/spark-connect_*.jar >/dev/null 2>&1 \
        || die "$home/jars has no spark-connect jar: pyspark 4.x is needed (3.x does not bundle the Connect server)"
    java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
    command -v "$java" >/dev/null || die "java not found: install Java 17 (Debian: apt-get install openjdk-17-jre-headless)"
    echo "SPARK_HOME=$home"
    "$java" -version 2>&1 | head -1
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# cluster HOME DIR N: a master and N one-core workers on loopback; prints the master's URL.
cluster() {
    local home="$1" dir="$2" n="$3" url="" i waited=0 timeout="${SPARK_CONNECT_START_TIMEOUT:-240}"
    : >"$dir/cluster.pids"
    SPARK_LOCAL_IP=127.0.0.1 SPARK_LOG_DIR="$dir" SPARK_PID_DIR="$dir" \
        setsid "$home/bin/spark-class" org.apache.spark.deploy.master.Master --host 127.0.0.1 --port 0 \
        --webui-port 0 </dev/null >"$dir/master.log" 2>&1 &
    echo $! >>"$dir/cluster.pids"
    until url="$(grep -o 'Starting Spark master at spark://[0-9.:]*' "$dir/master.log" | grep -o 'spark://.*')"; do
        (( waited++ < timeout * 2 )) || { tail -n 20 "$dir/master.log" >&2; die "the master did not start (log: $dir/master.log)"; }
        sleep 0.5
    done
    for ((i = 0; i < n; i++)); do
        mkdir -p "$dir/work$i"
        SPARK_LOCAL_IP=127.0.0.1 SPARK_LOG_DIR="$dir" SPARK_PID_DIR="$dir" \
            setsid "$home/bin/spark-class" org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --port 0 \
            --webui-port 0 --cores 1 --memory "${SPARK_CONNECT_WORKER_MEMORY:-1g}" --work-dir "$dir/work$i" "$url" \
            </dev/null >"$dir/worker$i.log" 2>&1 &
        echo $! >>"$dir/cluster.pids"
    done
    until (( $(grep -c 'Registering worker' "$dir/master.log") >= n )); do
        (( waited++ < timeout * 2 )) || { tail -n 20 "$dir/master.log" >&2; die "$n workers did not register (log: $dir)"; }
        sleep 0.5
    done
    echo "$url"
}

# Ends the master and workers that `cluster` started from DIR.
stop_cluster() {
    local dir="$1" pid
    [[ -f "$dir/cluster.pids" ]] || return 0
    for pid in $(cat "$dir/cluster.pids"); do kill -TERM "$pid" 2>/dev/null || true; done
    for _ in $(seq 1 40); do
        local alive=0
        for pid in $(cat "$dir/cluster.pids"); do kill -0 "$pid" 2>/dev/null && alive=1; done
        (( alive )) || break
        sleep 0.5
    done
    for pid in $(cat "$dir/cluster.pids"); do kill -KILL "$pid" 2>/dev/null || true; done
    rm -f "$dir/cluster.pids"
}

start() {
    local dir="$1" port="$2" owner="${3:-}"
    [[ "$port" =~ ^[0-9]+$ ]] || die "PORT must be a number, not '$port'"
    local home; home="$(spark_home)"
    check >/dev/null
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    if [[ -f "$dir/server.pid" ]] && kill -0 "$(cat "$dir/server.pid")" 2>/dev/null; then
        die "a server from $dir is already running (pid $(cat "$dir/server.pid")); stop it first"
    fi
    listening "$port" && die "port $port is already in use"
    mkdir -p "$dir/tmp" "$dir/warehouse"
    local auth=()
    if [[ -n "${SPARK_CONNECT_TOKEN:-}" ]]; then auth=(--conf "spark.connect.authenticate.token=$SPARK_CONNECT_TOKEN"); fi
    local started; started=$(date +%s%N)
    local master=(--master 'local[2]')
    if [[ -n "${SPARK_CONNECT_WORKERS:-}" ]]; then
        [[ "$SPARK_CONNECT_WORKERS" =~ ^[1-9][0-9]*$ ]] || die "SPARK_CONNECT_WORKERS must be a number ≥ 1, not '$SPARK_CONNECT_WORKERS'"
        local url; url="$(cluster "$home" "$dir" "$SPARK_CONNECT_WORKERS")" || { stop_cluster "$dir"; exit 1; }
        master=(--master "$url" --conf spark.executor.cores=1 --conf "spark.cores.max=$SPARK_CONNECT_WORKERS"
                --conf "spark.executor.memory=${SPARK_CONNECT_WORKER_MEMORY:-1g}")
    fi
    local ui=(--conf spark.ui.enabled=false)
    if [[ -n "${SPARK_CONNECT_UI_PORT:-}" ]]; then
        ui=(--conf spark.ui.enabled=true --conf "spark.ui.port=$SPARK_CONNECT_UI_PORT" --conf spark.port.maxRetries=0)
    fi
    # spark-submit execs java, so $! is the JVM's pid. setsid: the server does not get the
    # terminal's signals (a Ctrl-C in the test run), the watchdog or `stop` ends it.
    SPARK_LOCAL_IP=127.0.0.1 SPARK_LOG_DIR="$dir" SPARK_PID_DIR="$dir" \
    setsid "$home/bin/spark-submit" \
        --class org.apache.spark.sql.connect.service.SparkConnectServer \
        --name "auditor test Spark Connect server" \
        "${master[@]}" \
        --driver-memory "${SPARK_CONNECT_DRIVER_MEMORY:-1g}" \
        --conf "spark.connect.grpc.binding.port=$port" \
        --conf spark.connect.grpc.binding.address=127.0.0.1 \
        --conf spark.driver.host=127.0.0.1 \
        --conf spark.driver.bindAddress=127.0.0.1 \
        "${ui[@]}" \
        --conf spark.sql.catalogImplementation=in-memory \
        --conf "spark.sql.warehouse.dir=$dir/warehouse" \
        --conf "spark.local.dir=$dir/tmp" \
        --conf spark.sql.session.timeZone=UTC \
        --conf spark.sql.shuffle.partitions=4 \
        --conf "spark.driver.extraJavaOptions=-Djava.io.tmpdir=$dir/tmp" \
        "${auth[@]}" \
        </dev/null >"$dir/server.log" 2>&1 &
    local pid=$!
    echo "$pid" >"$dir/server.pid"
    echo "$port" >"$dir/server.port"
    if [[ -n "$owner" ]]; then
        # The watchdog: stops the server when the owner process is gone.
        # It also ends the cluster's master and workers (their pids in cluster.pids, if any).
        setsid bash -c 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done
                        others=$(cat "$3" 2>/dev/null)
                        kill -TERM "$2" $others 2>/dev/null; sleep 10; kill -KILL "$2" $others 2>/dev/null' \
            watchdog "$owner" "$pid" "$dir/cluster.pids" </dev/null >/dev/null 2>&1 &
        echo $! >"$dir/watchdog.pid"
    fi
    local timeout="${SPARK_CONNECT_START_TIMEOUT:-240}" waited=0
    until listening "$port"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            tail -n 40 "$dir/server.log" >&2
            stop_cluster "$dir"
            die "the server exited before listening on port $port (log: $dir/server.log)"
        fi
        if (( waited >= timeout * 2 )); then
            tail -n 40 "$dir/server.log" >&2
            stop "$dir"
            die "the server did not listen on port $port within ${timeout}s (log: $dir/server.log)"
        fi
        sleep 0.5
        waited=$((waited + 1))
    done
    local ms=$(( ($(date +%s%N) - started) / 1000000 ))
    printf 'started pid %s in %d.%d s, RSS %s\n' "$pid" $((ms / 1000)) $((ms % 1000 / 100)) "$(rss "$pid")" >&2
    echo "sc://127.0.0.1:$port"
}

rss() { awk '/^VmRSS/ { printf "%.0f MiB", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo "?"; }

status() {
    local dir="$1"
    [[ -f "$dir/server.pid" ]] || die "no server was started from $dir"
    local pid; pid="$(cat "$dir/server.pid")"
    if kill -0 "$pid" 2>/dev/null; then
        echo "running: pid $pid, port $(cat "$dir/server.port"), RSS $(rss "$pid")"
    else
        echo "not running (pid $pid)"; return 1
    fi
}

stop() {
    local dir="$1"
    [[ -f "$dir/server.pid" ]] || { echo "no server was started from $dir" >&2; return 0; }
    local pid; pid="$(cat "$dir/server.pid")"
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    fi
    if [[ -f "$dir/watchdog.pid" ]]; then
        kill "$(cat "$dir/watchdog.pid")" 2>/dev/null || true
        rm -f "$dir/watchdog.pid"
    fi
    rm -f "$dir/server.pid"
    stop_cluster "$dir"
    echo "stopped pid $pid" >&2
}

case "${1:-}" in
    check) check ;;
    start) [[ $# -ge 3 ]] || die "usage: $0 start DIR PORT [OWNER_PID]"; start "$2" "$3" "${4:-}" ;;
    status) [[ $# -eq 2 ]] || die "usage: $0 status DIR"; status "$2" ;;
    stop) [[ $# -eq 2 ]] || die "usage: $0 stop DIR"; stop "$2" ;;
    *) die "usage: $0 check | start DIR PORT [OWNER_PID] | status DIR | stop DIR" ;;
esac
