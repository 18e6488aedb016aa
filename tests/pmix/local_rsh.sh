#!/bin/sh
# An rsh agent for mpirun (--mca plm_rsh_agent) that runs the command on
# this machine whatever host it names: mpirun then starts a second daemon
# here for a "node" that does not exist, so a job spans two PMIx nodes on
# one machine.  Options before the host are dropped.
while [ $# -gt 0 ]; do
    case $1 in
    -*) shift ;;
    *) shift; break ;;
    esac
done
exec sh -c "$*"
