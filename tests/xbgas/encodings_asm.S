/* encodings_asm.S: every xBGAS mnemonic through xbgas-insn.h, in the
 * xbgas-runtime's style (namespace in e10 from a2, address a0, operand
 * a1); encodings.c checks the words. */
    .text
    .globl enc_code
    .globl enc_code_end
enc_code:
    eld a0, 8(a1)
    elw t0, -4(s1)
    elh a2, 0(a3)
    elhu a2, 2(a3)
    elb a4, 1(a5)
    elbu a4, 3(a5)
    ele e5, 16(a1)
    esd a0, 8(a1)
    esw t0, -4(s1)
    esh a2, 2(a3)
    esb a4, 1(a5)
    ese e7, 24(a1)
    erld a0, a1, e2
    erlw a0, a1, e2
    erlh a0, a1, e2
    erlhu a0, a1, e2
    erlb a0, a1, e2
    erlbu a0, a1, e2
    erle e3, a1, e2
    ersd a0, a1, e2
    ersw a0, a1, e2
    ersh a0, a1, e2
    ersb a0, a1, e2
    erse e3, a1, e2
    eaddi a0, e10, 0
    eaddie e10, a2, 0
    eaddix e4, e5, -1
    eamoswap.w t0, a1, a0
    eamoadd.d t0, a1, a0
    eamoxor.w t0, a1, a0
    eamoand.d t0, a1, a0
    eamoor.w t0, a1, a0
    eamomin.d t0, a1, a0
    eamomax.w t0, a1, a0
    eamominu.d t0, a1, a0
    eamomaxu.w t0, a1, a0
    eamocas.d t0, a1, a0
enc_code_end:

/* uint64_t enc_remote_add(uint64_t *addr, uint64_t v, int pe):
 * the runtime's __xbrtime_atomic_add_u8 shape, returning the old value */
    .globl enc_remote_add
enc_remote_add:
    addi a2, a2, 1
    eaddie e10, a2, 0
    eamoadd.d t0, a1, a0
    mv a0, t0
    ret
