#!/usr/bin/env bash
# Runs a bench command at the highest scheduling priority, engines included, on a machine other work shares:
#   sudo bench/run-at-high-priority.sh env PART=sim npx tsx bench/budget-end-to-end.ts > out.json 2> out.log
# With the kernel's autogroup on (/proc/sys/kernel/sched_autogroup_enabled = 1) each session's processes share one
# group, and `nice` only ranks processes within their own group: a bench under plain nice still gets one group's
# share beside every other session. So the command's own group is raised (/proc/self/autogroup), and since speedgate
# starts each engine detached (a session, and so a group, of its own, at nice 0), a watcher raises the group of every
# process the command started, within 100 ms of its start. Before the watcher the engines kept nice 0: at load 12 to
# 22, llama.cpp's run scores spread from 0.69 to 3.36 within one round; with it, 0.74 to 1.54 over 20 rounds, 10% to
# 11% within a round (docs/bench-report.md, row 20).
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: sudo bench/run-at-high-priority.sh <command> [args...]" >&2
  exit 2
fi
echo -19 > /proc/self/autogroup
own_group="$(cut -d' ' -f1 /proc/self/autogroup)"
raise_engines() {
  local -A children
  while true; do
    children=()
    while read -r pid ppid; do children[$ppid]+=" $pid"; done < <(ps -eo pid=,ppid=)
    # Every process this command started, however deep: the engines are children of the CLI, not of a session.
    local queue=("$$") pid
    while [ "${#queue[@]}" -gt 0 ]; do
      pid="${queue[0]}"
      queue=("${queue[@]:1}")
      for child in ${children[$pid]:-}; do
        queue+=("$child")
        grep -q "nice -19" "/proc/$child/autogroup" 2> /dev/null || { echo -19 > "/proc/$child/autogroup"; } 2> /dev/null || true
      done
    done
    sleep 0.1
  done
}
raise_engines &
watcher=$!
trap 'kill "$watcher" 2> /dev/null || true' EXIT
echo "bench/run-at-high-priority.sh: ${own_group} at nice -19, engines raised as they start" >&2
nice -n -15 "$@"
