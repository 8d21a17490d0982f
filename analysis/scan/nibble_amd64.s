//go:build gc && !purego

#include "textflag.h"

// func nibbleBitsAVX2(dst *uint64, src *byte, blocks int, tables *[32]byte)
//
// For each block of 64 bytes, two vectors of 32: a byte's low nibble picks
// an entry of the lo table and its high nibble one of the hi table (VPSHUFB,
// whose index bytes, nibbles, never have the high bit that would zero
// them); the byte is in the set when the two share a bit. The bytes not in
// it compare equal to zero, so the mask of those, inverted, is the block's
// bitmap.
TEXT ·nibbleBitsAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ blocks+16(FP), CX
	MOVQ tables+24(FP), AX
	VBROADCASTI128 (AX), Y13
	VBROADCASTI128 16(AX), Y14
	MOVQ $0x0f0f0f0f0f0f0f0f, BX
	MOVQ BX, X15
	VPBROADCASTQ X15, Y15
	VPXOR Y12, Y12, Y12
	TESTQ CX, CX
	JZ done

loop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y3

	VPSRLW $4, Y0, Y1
	VPAND Y15, Y1, Y1
	VPAND Y15, Y0, Y2
	VPSHUFB Y2, Y13, Y2
	VPSHUFB Y1, Y14, Y1
	VPAND Y1, Y2, Y2
	VPCMPEQB Y12, Y2, Y2
	VPMOVMSKB Y2, R8

	VPSRLW $4, Y3, Y4
	VPAND Y15, Y4, Y4
	VPAND Y15, Y3, Y5
	VPSHUFB Y5, Y13, Y5
	VPSHUFB Y4, Y14, Y4
	VPAND Y4, Y5, Y5
	VPCMPEQB Y12, Y5, Y5
	VPMOVMSKB Y5, R9

	SHLQ $32, R9
	ORQ R9, R8
	NOTQ R8
	MOVQ R8, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
