package blob_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/blob/blobtest"
	"github.com/pipekit/pipe/errcode"
)

// rows is pseudo-random CSV of n bytes, as compressible as real data.
func rows(n int) []byte {
	var b bytes.Buffer
	b.WriteString("id,note\n")
	x := uint64(1)
	for b.Len() < n {
		x = x*6364136223846793005 + 1442695040888963407
		b.WriteString(strconv.FormatUint(x>>40, 10))
		b.WriteString(",n")
		b.WriteString(strconv.FormatUint(x>>58, 36))
		b.WriteString("\n")
	}
	return b.Bytes()
}

// big is a file long enough that a zstd stream names its window rather
// than its size.
var big = rows(1 << 20)

// zstdWith compresses data into one zstd stream written with a window of
// window bytes.
func zstdWith(t testing.TB, data []byte, window int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := zstd.NewWriter(&buf, zstd.WithWindowSize(window), zstd.WithEncoderConcurrency(1))
	blobtest.RequireNoError(t, err)
	_, err = w.Write(data)
	blobtest.RequireNoError(t, err)
	blobtest.RequireNoError(t, w.Close())
	return buf.Bytes()
}

// readLimited reads data through DecompressLimited and answers how many
// bytes came out before the error, if any.
func readLimited(data []byte, lim blob.DecompressLimits) (int64, error) {
	r, _, err := blob.DecompressLimited(bytes.NewReader(data), blob.CompressionAuto, lim)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	return io.Copy(io.Discard, r)
}

// A window past the limit is refused from its header, naming its size;
// the same stream reads when the limit allows it.
func TestDecompressRefusesLargeWindow(t *testing.T) {
	t.Parallel()
	data := zstdWith(t, big, 16<<20)
	_, err := readLimited(data, blob.DecompressLimits{})
	blobtest.RequireCode(t, err, errcode.CompressionWindowTooLarge)
	if !strings.Contains(err.Error(), "16 MiB") || !strings.Contains(err.Error(), "8 MiB") {
		t.Errorf("error %q does not name the window and the limit", err)
	}
	n, err := readLimited(data, blob.DecompressLimits{MaxWindow: 16 << 20})
	blobtest.RequireNoError(t, err)
	if n != int64(len(big)) {
		t.Fatalf("read %d bytes, want %d", n, len(big))
	}
}

// zstd --long=30 asks for a 1 GiB window, more than a decoder's default: it
// is refused by default and read when the limit allows it.
func TestDecompressLongWindow(t *testing.T) {
	t.Parallel()
	data := zstdWith(t, big, 1<<20)
	if data[4]&0x20 != 0 {
		t.Fatal("the stream is a single segment; it names no window")
	}
	data[5] = (30 - 10) << 3 // the window descriptor: 2^30 bytes
	_, err := readLimited(data, blob.DecompressLimits{})
	blobtest.RequireCode(t, err, errcode.CompressionWindowTooLarge)
	if !strings.Contains(err.Error(), "1024 MiB") {
		t.Errorf("error %q does not name the window", err)
	}
	n, err := readLimited(data, blob.DecompressLimits{MaxWindow: 1 << 30})
	blobtest.RequireNoError(t, err)
	if n != int64(len(big)) {
		t.Fatalf("read %d bytes, want %d", n, len(big))
	}
}

// A later frame's window is refused by the decoder, from Read.
func TestDecompressRefusesLargeWindowInLaterFrame(t *testing.T) {
	t.Parallel()
	data := append(zstdWith(t, big, 1<<20), zstdWith(t, big, 32<<20)...)
	n, err := readLimited(data, blob.DecompressLimits{})
	blobtest.RequireCode(t, err, errcode.CompressionWindowTooLarge)
	if n < int64(len(big)) {
		t.Errorf("read %d bytes before the refusal, want the first frame's %d", n, len(big))
	}
}

// A single-segment frame's window is its content size: one that claims
// more than the limit is refused before anything is decoded.
func TestDecompressRefusesLargeSingleSegment(t *testing.T) {
	t.Parallel()
	// magic, descriptor (8-byte size, single segment), the size, then an
	// empty last raw block.
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0}
	_, err := readLimited(frame, blob.DecompressLimits{})
	blobtest.RequireCode(t, err, errcode.CompressionWindowTooLarge)
}

// repeated is a highly compressible CSV of n bytes.
func repeated(n int) []byte {
	return []byte("id,note\n" + strings.Repeat("1,x\n", n/4))
}

// A stream that inflates past the ratio is refused within its first MiBs,
// however long it would go on; gzip and zstd alike.
func TestDecompressRefusesRatio(t *testing.T) {
	t.Parallel()
	bomb := repeated(64 << 20)
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	_, _ = w.Write(bomb)
	blobtest.RequireNoError(t, w.Close())
	for name, data := range map[string][]byte{"zstd": zstdWith(t, bomb, 1<<20), "gzip": gz.Bytes()} {
		n, err := readLimited(data, blob.DecompressLimits{MaxRatio: 200})
		blobtest.RequireCode(t, err, errcode.DecompressedTooLarge)
		if n > 4<<20 {
			t.Errorf("%s: %d bytes came out before the refusal, want at most 4 MiB", name, n)
		}
		if strings.Contains(err.Error(), "1,x") {
			t.Errorf("%s: error %q quotes the data", name, err)
		}
	}
}

// A file within the ratio reads whole, and a tiny one is not refused for
// its header's sake.
func TestDecompressWithinRatio(t *testing.T) {
	t.Parallel()
	for _, data := range [][]byte{rows(4 << 20), repeated(512 << 10)} {
		packed := zstdWith(t, data, 1<<20)
		n, err := readLimited(packed, blob.DecompressLimits{MaxRatio: 200})
		blobtest.RequireNoError(t, err)
		if n != int64(len(data)) {
			t.Fatalf("read %d of %d bytes", n, len(data))
		}
	}
}

// A stream past the byte limit is refused at the limit, and the refusal
// sticks.
func TestDecompressRefusesBytes(t *testing.T) {
	t.Parallel()
	r, _, err := blob.DecompressLimited(bytes.NewReader(zstdWith(t, text, 1<<20)), blob.CompressionZstd,
		blob.DecompressLimits{MaxBytes: 1000})
	blobtest.RequireNoError(t, err)
	n, err := io.Copy(io.Discard, r)
	blobtest.RequireCode(t, err, errcode.DecompressedTooLarge)
	if n > int64(len(text)) || n < 1000 {
		t.Errorf("%d bytes came out", n)
	}
	if _, again := r.Read(make([]byte, 10)); !errors.Is(again, errcode.DecompressedTooLarge) {
		t.Errorf("a later Read answered %v", again)
	}
}

func TestDecompressLimitsCheck(t *testing.T) {
	t.Parallel()
	for _, l := range []blob.DecompressLimits{{MaxWindow: -1}, {MaxWindow: 100}, {MaxWindow: 4 << 30},
		{MaxRatio: -1}, {MaxBytes: -1}} {
		_, _, err := blob.DecompressLimited(bytes.NewReader(nil), blob.CompressionAuto, l)
		blobtest.RequireCode(t, err, errcode.ConfigInvalid)
	}
}
