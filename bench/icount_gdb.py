# gdb script of bench/icount_gdb.sh: single-steps the two counted calls of
# ic_loop in a PE of xgas-instr-count run with XGAS_IC_GDB=1 (see
# bench/instr_count.c), attached by pid.  Addresses come from the
# program's own line (IC_LOOP, IC_GO in the environment): no symbols are
# needed, which PVAS mode requires (gdb reads xgasrun's as the program's).
# Writes "icount call=K steps=S moves=M" per call to IC_OUT (gdb's own
# output goes to /dev/null: it prints every stop): S single steps from
# ic_loop's first instruction to its return (every callee included, as
# callgrind's --toggle-collect counts), M of them steps that moved the pc
# (a rep-prefixed string instruction takes one step per iteration).
import os

import gdb

loop = int(os.environ["IC_LOOP"], 16)
go = int(os.environ["IC_GO"], 16)


def reg(name):
    return int(gdb.parse_and_eval("$" + name)) & 0xFFFFFFFFFFFFFFFF


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set logging file /dev/null")
gdb.execute("set logging redirect on")
try:
    gdb.execute("set logging enabled on")
except gdb.error:  # gdb before 12
    gdb.execute("set logging on")
gdb.execute("break *0x%x" % loop, to_string=True)
gdb.execute("set var *(volatile int *)0x%x = 1" % go)
inf = gdb.selected_inferior()
results = []
for call in (1, 2):
    gdb.execute("continue", to_string=True)
    if reg("pc") != loop:
        raise gdb.GdbError("icount: stopped at 0x%x, not ic_loop" % reg("pc"))
    sp0 = reg("sp")
    ret = int.from_bytes(bytes(inf.read_memory(sp0, 8)), "little")
    steps = moves = 0
    pc = loop
    while True:
        gdb.execute("stepi", to_string=True)
        steps += 1
        new = reg("pc")
        if new != pc:
            moves += 1
        pc = new
        if pc == ret and reg("sp") == sp0 + 8:
            break
    results.append("icount call=%d steps=%d moves=%d\n" % (call, steps, moves))
gdb.execute("delete")
gdb.execute("detach")
with open(os.environ["IC_OUT"], "w") as out:
    out.writelines(results)
