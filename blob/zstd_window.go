package blob

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"strconv"
)

// zstdHeaderMax is the longest zstd frame header: the magic, the
// descriptor, the window byte, a 4-byte dictionary id and an 8-byte size.
const zstdHeaderMax = 4 + 1 + 1 + 4 + 8

// checkZstdWindow refuses a stream whose first frame's header asks for a
// window above limit, naming the size; later frames are the decoder's to
// refuse. It consumes nothing.
func checkZstdWindow(br *bufio.Reader, limit int64) error {
	head, _ := br.Peek(zstdHeaderMax) // a short header is the decoder's to refuse
	size, ok := zstdWindow(head)
	if ok && size > limit {
		return windowTooLarge(nil, size, limit)
	}
	return nil
}

// zstdWindow reads the window size a zstd frame header asks for (RFC 8878
// 3.1.1.1): the window descriptor, or for a single-segment frame the
// content size. ok is false when head is not a whole frame header.
func zstdWindow(head []byte) (size int64, ok bool) {
	if len(head) < 6 || !bytes.HasPrefix(head, zstdMagic) {
		return 0, false
	}
	desc := head[4]
	if desc&0x20 == 0 { // not single segment: a window descriptor follows
		exp, mantissa := int64(head[5]>>3), int64(head[5]&7)
		base := int64(1) << (10 + exp)
		return base + base/8*mantissa, true
	}
	dictLen := [4]int{0, 1, 2, 4}[desc&3]
	fcsLen := [4]int{1, 2, 4, 8}[desc>>6]
	field := head[5+dictLen:]
	if len(field) < fcsLen {
		return 0, false
	}
	switch fcsLen {
	case 1:
		return int64(field[0]), true
	case 2:
		return int64(binary.LittleEndian.Uint16(field)) + 256, true
	case 4:
		return int64(binary.LittleEndian.Uint32(field)), true
	}
	n := binary.LittleEndian.Uint64(field)
	if n > 1<<62 {
		n = 1 << 62
	}
	return int64(n), true
}

// mib renders a size in MiB (to a tenth unless whole), or KiB below one
// MiB.
func mib(n int64) string {
	switch {
	case n < 1<<20:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}
