package pqread

import (
	"errors"
	"unsafe"

	"github.com/parquet-go/parquet-go/format"
)

// skim walks one thrift compact-protocol struct without decoding it, so
// that bytes from the file are decoded only once their claims are known
// to be honest. parquet-go's decoder makes a list the size its header
// claims before reading an element, and a binary the length it claims: a
// 100-byte footer claiming two billion row groups asks for 180 GB, and the
// process dies. skim checks every claim against the bytes that remain
// (each list element, map entry and binary byte takes at least one) and
// answers how long the struct is and what decoding it would allocate.
type skim struct {
	b   []byte
	pos int
	est int64 // the bytes decoding would allocate, at most
}

// structCost is the most one decoded struct of the format takes (a
// column chunk, the largest), counted for every struct skim meets.
var structCost = int64(unsafe.Sizeof(format.ColumnChunk{}))

// The compact protocol's types.
const (
	tTrue, tFalse, tByte, tI16, tI32, tI64, tDouble, tBinary = 1, 2, 3, 4, 5, 6, 7, 8
	tList, tSet, tMap, tStruct, tUUID                        = 9, 10, 11, 12, 13
	maxDepth                                                 = 32
)

var (
	// errShort: the bytes end inside the struct; more may complete it.
	errShort = errors.New("thrift struct is truncated")
	// errMalformed: the bytes cannot be a struct.
	errMalformed = errors.New("thrift struct is malformed")
)

// skimStruct answers the length of the struct at the start of b and what
// decoding it would allocate.
func skimStruct(b []byte) (n int, est int64, err error) {
	s := skim{b: b, est: structCost}
	err = s.structure(0)
	return s.pos, s.est, err
}

func (s *skim) structure(depth int) error {
	if depth > maxDepth {
		return errMalformed
	}
	for {
		h, err := s.byte()
		if err != nil || h == 0 {
			return err
		}
		if h>>4 == 0 { // a long-form field id follows
			if _, err := s.varint(); err != nil {
				return err
			}
		}
		if err := s.value(h&0x0f, depth, true); err != nil {
			return err
		}
	}
}

// value skips one value of type t; a boolean field carries its value in
// its type, a boolean element takes a byte.
func (s *skim) value(t byte, depth int, field bool) error {
	switch t {
	case tTrue, tFalse:
		if field {
			return nil
		}
		return s.skip(1)
	case tByte:
		return s.skip(1)
	case tI16, tI32, tI64:
		_, err := s.varint()
		return err
	case tDouble:
		return s.skip(8)
	case tUUID:
		return s.skip(16)
	case tBinary:
		n, err := s.length()
		if err == nil {
			s.est += int64(n)
			err = s.skip(n)
		}
		return err
	case tList, tSet:
		return s.list(depth)
	case tMap:
		return s.mapping(depth)
	case tStruct:
		return s.structure(depth + 1)
	}
	return errMalformed
}

func (s *skim) list(depth int) error {
	h, err := s.byte()
	if err != nil {
		return err
	}
	n := int(h >> 4)
	if n == 15 {
		if n, err = s.length(); err != nil {
			return err
		}
	}
	return s.elements(n, h&0x0f, depth)
}

func (s *skim) mapping(depth int) error {
	n, err := s.length()
	if err != nil || n == 0 {
		return err
	}
	kv, err := s.byte()
	if err != nil {
		return err
	}
	if err := s.fits(2 * n); err != nil {
		return err
	}
	s.est += int64(n) * (elemCost(kv>>4) + elemCost(kv&0x0f))
	for range n {
		if err := s.value(kv>>4, depth+1, false); err != nil {
			return err
		}
		if err := s.value(kv&0x0f, depth+1, false); err != nil {
			return err
		}
	}
	return nil
}

// elements skips n elements of type t, each at least a byte.
func (s *skim) elements(n int, t byte, depth int) error {
	if err := s.fits(n); err != nil {
		return err
	}
	s.est += int64(n) * elemCost(t)
	for range n {
		if err := s.value(t, depth+1, false); err != nil {
			return err
		}
	}
	return nil
}

// elemCost is what one decoded element of type t takes at most.
func elemCost(t byte) int64 {
	switch t {
	case tStruct:
		return structCost
	case tBinary:
		return 24
	}
	return 16
}

// fits refuses a claim of n bytes past the end: more bytes could make it
// honest, so it is errShort.
func (s *skim) fits(n int) error {
	if n > len(s.b)-s.pos {
		return errShort
	}
	return nil
}

func (s *skim) skip(n int) error {
	if err := s.fits(n); err != nil {
		return err
	}
	s.pos += n
	return nil
}

func (s *skim) byte() (byte, error) {
	if s.pos >= len(s.b) {
		return 0, errShort
	}
	s.pos++
	return s.b[s.pos-1], nil
}

// varint reads an unsigned varint of at most ten bytes.
func (s *skim) varint() (uint64, error) {
	var v uint64
	for shift := 0; shift < 70; shift += 7 {
		c, err := s.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errMalformed
}

// length reads a size: a varint no larger than an int32, as parquet-go's
// decoder takes it.
func (s *skim) length() (int, error) {
	v, err := s.varint()
	if err != nil {
		return 0, err
	}
	if v > 1<<31-1 {
		return 0, errMalformed
	}
	return int(v), nil
}
