# Sourced by the launcher and PVAS test scripts.
#
# alive PID: PID is a process that has not exited.  A zombie counts as
# exited: an orphan may wait for an init that never reaps it.
alive() {
    kill -0 "$1" 2>/dev/null || return 1
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    state=${stat##*) }
    [ "${state%% *}" != Z ]
}
