#include "textflag.h"

// func indexPairBlocks(data []byte, npos, o1, o2 int, b1, b2, m1, m2 byte) int
//
// Each step loads the 32 bytes at o1 and the 32 at o2 of 32 positions,
// ORs in the masks, compares with the broadcast bytes and ANDs the two
// results: a lane is 0xff where both bytes are there. Any lane set is
// tested by adding the two 64-bit halves of the OR of the two registers
// (bytes of 0x00/0xff never sum to zero). The first lane is then found as
// Go's IndexByte does: AND each lane with 1, 4, 16, 64 in turn and add
// pairs twice, which leaves two bits per lane in a 64-bit syndrome, the
// lowest for lane 0; its trailing zeros halved are the lane.
TEXT ·indexPairBlocks(SB), NOSPLIT, $0-64
	MOVD  data_base+0(FP), R0
	MOVD  npos+24(FP), R1
	MOVD  o1+32(FP), R2
	MOVD  o2+40(FP), R3
	MOVBU b1+48(FP), R4
	MOVBU b2+49(FP), R5
	MOVBU m1+50(FP), R6
	MOVBU m2+51(FP), R7
	VMOV  R4, V0.B16
	VMOV  R5, V1.B16
	VMOV  R6, V2.B16
	VMOV  R7, V3.B16
	MOVD  $0x40100401, R8
	VMOV  R8, V4.S4
	ADD   R0, R2, R2    // where the first byte of position 0 is
	ADD   R0, R3, R3    // where the second is
	MOVD  R2, R9        // position 0's first byte, to turn R2 back into a position
	BIC   $31, R1, R1
	ADD   R2, R1, R10   // end of the loop, in R2's terms

loop:
	CMP   R10, R2
	BHS   notfound
	VLD1.P 32(R2), [V5.B16, V6.B16]
	VLD1.P 32(R3), [V7.B16, V8.B16]
	VORR  V2.B16, V5.B16, V5.B16
	VORR  V2.B16, V6.B16, V6.B16
	VORR  V3.B16, V7.B16, V7.B16
	VORR  V3.B16, V8.B16, V8.B16
	VCMEQ V0.B16, V5.B16, V5.B16
	VCMEQ V0.B16, V6.B16, V6.B16
	VCMEQ V1.B16, V7.B16, V7.B16
	VCMEQ V1.B16, V8.B16, V8.B16
	VAND  V7.B16, V5.B16, V5.B16
	VAND  V8.B16, V6.B16, V6.B16
	VORR  V6.B16, V5.B16, V9.B16
	VADDP V9.D2, V9.D2, V9.D2
	VMOV  V9.D[0], R11
	CBZ   R11, loop

	VAND  V4.B16, V5.B16, V5.B16
	VAND  V4.B16, V6.B16, V6.B16
	VADDP V6.B16, V5.B16, V9.B16 // 32 lanes -> 16 bytes, V5's first
	VADDP V9.B16, V9.B16, V9.B16 // -> 8 bytes
	VMOV  V9.D[0], R11
	RBIT  R11, R11
	CLZ   R11, R11
	SUB   $32, R2, R2           // the block's first position, in R2's terms
	ADD   R11>>1, R2, R2
	SUB   R9, R2, R2
	MOVD  R2, ret+56(FP)
	RET

notfound:
	MOVD  $-1, R0
	MOVD  R0, ret+56(FP)
	RET
