package subject_test

import (
	"errors"
	"math"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/subject"
)

// A page size is checked against its range in a declaration and in the
// stock jobs' input.
func TestPageRowsOutOfRangeAreRefused(t *testing.T) {
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{"members": subject.Delete()}}
	for _, n := range []int{-1, subject.MaxPageRows + 1, math.MaxInt} {
		_, err := subject.NewErase(subject.EraseOptions[eraseIn]{Name: "e", Subject: d, PageRows: n,
			Person: func(in eraseIn) subject.Key { return subject.Key{in.Member} }})
		if !errors.Is(err, errcode.JobDeclarationInvalid) {
			t.Errorf("erase page rows %d: %v", n, err)
		}
		if err := (subject.Request{Subject: d, Key: []string{"1"}, PageRows: n}).Check(); !errors.Is(err, errcode.JobInputInvalid) {
			t.Errorf("request page rows %d: %v", n, err)
		}
	}
}
