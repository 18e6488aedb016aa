#!/bin/sh
# netns_test.sh MPIRUN NODES PPN PROG [ARGS...]
#
# A job over real hosts on one machine: NODES network namespaces, each a
# "host" with its own network interface, address and host name, joined by
# veth pairs to a bridge in a namespace of its own (the switch); Open
# MPI's mpirun starts in the first host, reads a host file naming the
# hosts, and starts its daemons in the others through an rsh agent that
# enters their namespace.  PROG runs with PPN PEs per host, through PMIx;
# the hosts reach each other only through the bridge (libfabric's tcp
# provider picks the host's interface: it is the only one but loopback).
#
#   - host i: namespace xgas-h<i>-<pid>, interface eth0 with 10.<n>.0.<i>/24,
#     host name xgas<pid>-node<i> (its own UTS namespace, and /etc/hosts
#     through /etc/netns, which `ip netns exec` mounts over /etc): unique,
#     so that the shared-memory files Open MPI names after the host are
#     this job's alone;
#   - the switch: namespace xgas-sw-<pid> with bridge br0 and the veth ends;
#   - everything is removed when the script ends, however it ends.
#
# Exit status: PROG's job's (0 passes), 77 with a line starting SKIPPED when
# this machine refuses network namespaces (not root, no ip netns, no veth
# or bridge support) or mpirun is missing.  Set NETNS_KEEP_OUTPUT=file to
# keep the job's output.
mpirun=$1
nodes=$2
ppn=$3
shift 3
skip() {
    echo "SKIPPED: $*"
    exit 77
}
case $mpirun in
"" | *NOTFOUND) skip "mpirun was not found (Debian: apt-get install openmpi-bin)" ;;
esac
[ "$(id -u)" -eq 0 ] || skip "network namespaces need root (this is uid $(id -u))"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is not installed"
command -v unshare >/dev/null 2>&1 || skip "unshare (util-linux) is not installed"

tag=$$
net=$((10 + tag % 200)) # 10.<net>.0.0/24: unlikely to clash
sw=xgas-sw-$tag
host=xgas$tag-node # host i is $host$i
dir=$(mktemp -d) || exit 1
created=""
cleanup() {
    for ns in $created; do
        # whatever a job left in the namespace goes with it
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            kill -9 "$pid" 2>/dev/null
        done
        ip netns del "$ns" 2>/dev/null
        rm -rf "/etc/netns/$ns"
    done
    # what Open MPI's shared memory left in /dev/shm if the job was killed
    rm -f /dev/shm/vader_segment."$host"*
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

ip netns add "$sw" 2>"$dir/err" ||
    skip "this machine refuses network namespaces ($(cat "$dir/err"))"
created="$sw"
ip -n "$sw" link add br0 type bridge 2>"$dir/err" ||
    skip "no bridge support in this kernel ($(cat "$dir/err"))"
ip -n "$sw" link set br0 up
hosts=""
i=1
while [ "$i" -le "$nodes" ]; do
    ns=xgas-h$i-$tag
    ip netns add "$ns" || exit 1
    created="$created $ns"
    # the host's end of the cable is eth0; the other end plugs into br0
    ip -n "$ns" link add eth0 type veth peer name port$i netns "$sw" \
        2>"$dir/err" || skip "no veth support ($(cat "$dir/err"))"
    ip -n "$sw" link set port$i master br0
    ip -n "$sw" link set port$i up
    ip -n "$ns" addr add "10.$net.0.$i/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    hosts="$hosts $host$i"
    i=$((i + 1))
done
# every host resolves every other's name
i=1
while [ "$i" -le "$nodes" ]; do
    mkdir -p "/etc/netns/xgas-h$i-$tag"
    {
        echo "127.0.0.1 localhost"
        j=1
        while [ "$j" -le "$nodes" ]; do
            echo "10.$net.0.$j $host$j"
            j=$((j + 1))
        done
    } >"/etc/netns/xgas-h$i-$tag/hosts"
    i=$((i + 1))
done
for h in $hosts; do
    echo "$h slots=$ppn"
done >"$dir/hostfile"

# The rsh agent: "agent [options] host command...": the command runs in
# the host's namespace, under its host name.
cat >"$dir/agent" <<AGENT
#!/bin/sh
while [ \$# -gt 0 ]; do
    case \$1 in
    -*) shift ;;
    *) break ;;
    esac
done
name=\$1
shift
n=\${name#$host}
exec ip netns exec xgas-h\$n-$tag unshare --uts sh -c \
    "hostname \$name && \$*"
AGENT
chmod +x "$dir/agent"

# mpirun in the first host, the others through the agent; the xgas
# settings of this environment go to every PE
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
np=$((nodes * ppn))
pass=$(env | sed -n 's/^\(\(XGAS\|SHMEM\)_[A-Z0-9_]*\)=.*/-x \1/p' | tr '\n' ' ')
# shellcheck disable=SC2086  # $pass is a word list
ip netns exec "xgas-h1-$tag" unshare --uts sh -c "hostname ${host}1 &&
    exec \"\$@\"" sh "$mpirun" --hostfile "$dir/hostfile" -n "$np" \
    --map-by slot --oversubscribe --mca plm_rsh_agent "$dir/agent" \
    --mca oob_tcp_if_include eth0 $pass "$@" >"$dir/out" 2>&1
status=$?
cat "$dir/out"
if [ -n "${NETNS_KEEP_OUTPUT:-}" ]; then
    cp "$dir/out" "$NETNS_KEEP_OUTPUT"
fi
exit "$status"
