/*
 * xbgas-insn.h: the xBGAS 2.0.0 instructions as GNU assembler macros over
 * `.insn`, for assembly preprocessed with
 *   -x assembler-with-cpp -include xbgas-insn.h
 * (xgas-xbgas-cc does it), so xBGAS assembly assembles with a stock RISC-V
 * binutils.  Encodings: docs/xbgas.md.  e0..e31 are names for the extended
 * registers; `.insn` takes x-register names, and the e-register of an
 * instruction is the one with the same number.
 * Operand orders: eld rd, imm(rs1); esd rs2, imm(rs1); erld rd, rs1, ext2;
 * ersd rs1, rs2, ext3 (stores rs1 at ext3:rs2); erle extd, rs1, ext2;
 * erse ext1, rs2, ext3; eaddi rd, ext1, imm; eaddie extd, rs1, imm;
 * eaddix extd, ext1, imm; eamo<op>.<w|d> rd, rs2, rs1 (like amo<op>:
 * rs2 the operand, rs1 the address, its e-register the namespace);
 * eamocas.<w|d> rd, rs2, rs1: rd holds the expected value and receives
 * the old one, rs2 is the new value.
 */
/* assembler macros, not C: laid out by hand */
/* clang-format off */
#ifndef XBGAS_INSN_H
#define XBGAS_INSN_H

#define e0 x0
#define e1 x1
#define e2 x2
#define e3 x3
#define e4 x4
#define e5 x5
#define e6 x6
#define e7 x7
#define e8 x8
#define e9 x9
#define e10 x10
#define e11 x11
#define e12 x12
#define e13 x13
#define e14 x14
#define e15 x15
#define e16 x16
#define e17 x17
#define e18 x18
#define e19 x19
#define e20 x20
#define e21 x21
#define e22 x22
#define e23 x23
#define e24 x24
#define e25 x25
#define e26 x26
#define e27 x27
#define e28 x28
#define e29 x29
#define e30 x30
#define e31 x31

.macro xbgas_load name, f3
.macro \name rd, mem
.insn i 0x77, \f3, \rd, \mem
.endm
.endm
xbgas_load elb, 0
xbgas_load elh, 1
xbgas_load elw, 2
xbgas_load eld, 3
xbgas_load elbu, 4
xbgas_load elhu, 5
xbgas_load ele, 7

.macro xbgas_store name, f3
.macro \name rs2, mem
.insn s 0x7b, \f3, \rs2, \mem
.endm
.endm
xbgas_store esb, 0
xbgas_store esh, 1
xbgas_store esw, 2
xbgas_store esd, 3
xbgas_store ese, 7

.macro xbgas_rload name, f3
.macro \name rd, rs1, ext2
.insn r 0x33, \f3, 0x55, \rd, \rs1, \ext2
.endm
.endm
xbgas_rload erlb, 0
xbgas_rload erlh, 1
xbgas_rload erlw, 2
xbgas_rload erld, 3
xbgas_rload erlbu, 4
xbgas_rload erlhu, 5
xbgas_rload erle, 7

.macro xbgas_rstore name, f3
.macro \name rs1, rs2, ext3
.insn r 0x33, \f3, 0x22, \ext3, \rs1, \rs2
.endm
.endm
xbgas_rstore ersb, 0
xbgas_rstore ersh, 1
xbgas_rstore ersw, 2
xbgas_rstore ersd, 3
xbgas_rstore erse, 7

.macro eaddi rd, ext1, imm
.insn i 0x7b, 6, \rd, \ext1, \imm
.endm
.macro eaddie extd, rs1, imm
.insn i 0x7b, 5, \extd, \rs1, \imm
.endm
.macro eaddix extd, ext1, imm
.insn i 0x03, 7, \extd, \ext1, \imm
.endm

.macro xbgas_amo name, f7
.macro \name\().w rd, rs2, rs1
.insn r 0x6b, 2, \f7, \rd, \rs1, \rs2
.endm
.macro \name\().d rd, rs2, rs1
.insn r 0x6b, 3, \f7, \rd, \rs1, \rs2
.endm
.endm
xbgas_amo eamoadd, 0x00
xbgas_amo eamoswap, 0x01
xbgas_amo eamoxor, 0x04
xbgas_amo eamocas, 0x05
xbgas_amo eamoor, 0x08
xbgas_amo eamoand, 0x0c
xbgas_amo eamomin, 0x10
xbgas_amo eamomax, 0x14
xbgas_amo eamominu, 0x18
xbgas_amo eamomaxu, 0x1c

#endif
