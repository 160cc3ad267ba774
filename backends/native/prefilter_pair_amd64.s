#include "textflag.h"

// func indexPairBlocks(data []byte, npos, o1, o2 int, b1, b2, m1, m2 byte) int
TEXT ·indexPairBlocks(SB), NOSPLIT, $0-64
	MOVQ    data_base+0(FP), SI
	MOVQ    npos+24(FP), CX
	MOVQ    o1+32(FP), R8
	MOVQ    o2+40(FP), R9
	// Every instruction here is VEX-encoded: the legacy-SSE MOVQ that
	// once moved the bytes into X registers cost about 340 ns a call on
	// the test VM (an SSE/AVX state transition), which made a scan that
	// stops at a candidate every kilobyte run at a tenth of its speed.
	VPBROADCASTB b1+48(FP), Y1
	VPBROADCASTB b2+49(FP), Y2
	VPBROADCASTB m1+50(FP), Y3
	VPBROADCASTB m2+51(FP), Y4
	LEAQ    (SI)(R8*1), R8 // where the first byte of position 0 is
	LEAQ    (SI)(R9*1), R9 // where the second is
	XORQ    DI, DI
	ANDQ    $-32, CX
	MOVQ    CX, R12
	ANDQ    $-64, R12 // end of the two-block loop

loop64:
	CMPQ    DI, R12
	JAE     loop32
	VMOVDQU (R8)(DI*1), Y5
	VMOVDQU (R9)(DI*1), Y6
	VMOVDQU 32(R8)(DI*1), Y7
	VMOVDQU 32(R9)(DI*1), Y8
	VPOR    Y3, Y5, Y5
	VPOR    Y4, Y6, Y6
	VPOR    Y3, Y7, Y7
	VPOR    Y4, Y8, Y8
	VPCMPEQB Y1, Y5, Y5
	VPCMPEQB Y2, Y6, Y6
	VPCMPEQB Y1, Y7, Y7
	VPCMPEQB Y2, Y8, Y8
	VPAND   Y5, Y6, Y5
	VPAND   Y7, Y8, Y7
	VPOR    Y5, Y7, Y9
	VPTEST  Y9, Y9
	JNZ     found64
	ADDQ    $64, DI
	JMP     loop64

found64:
	VPMOVMSKB Y5, DX
	TESTL   DX, DX
	JNZ     found
	ADDQ    $32, DI
	VPMOVMSKB Y7, DX
	JMP     found

loop32:
	CMPQ    DI, CX
	JAE     notfound
	VMOVDQU (R8)(DI*1), Y5
	VMOVDQU (R9)(DI*1), Y6
	VPOR    Y3, Y5, Y5
	VPOR    Y4, Y6, Y6
	VPCMPEQB Y1, Y5, Y5
	VPCMPEQB Y2, Y6, Y6
	VPAND   Y5, Y6, Y5
	VPMOVMSKB Y5, DX
	TESTL   DX, DX
	JNZ     found
	ADDQ    $32, DI
	JMP     loop32

found:
	BSFL    DX, DX
	ADDQ    DX, DI
	MOVQ    DI, ret+56(FP)
	VZEROUPPER
	RET

notfound:
	MOVQ    $-1, ret+56(FP)
	VZEROUPPER
	RET
