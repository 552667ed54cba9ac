package jetstream

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/errcode"
)

// alternate is what a key's second durable name adds to its first: "~" is
// in no name DurableName makes and refused in any Durable answers, so the
// second name of one key is never the first of another.
const alternate = "~b"

// refusedInName are the characters NATS refuses in a consumer's name, and
// "~", which the source keeps for the alternate name.
const refusedInName = " \t\r\n\f.*>/\\~"

// names answers the two names key's durable goes by: Durable(key), and it
// followed by "~b". A name Durable answers that NATS would refuse, or that
// holds "~", is X_CONSUMER_INVALID.
func (s *Source) names(key string) ([2]string, error) {
	n := s.o.Durable(key)
	if n == "" || strings.ContainsAny(n, refusedInName) {
		return [2]string{}, errcode.New(errcode.ConsumerInvalid, "jetstream source: stream %s: Durable answered an empty name, or one holding a blank or one of . * > / \\ ~", s.o.Stream).
			WithFix("answer names of letters, digits, \"-\" and \"_\" from Durable, or leave it to DurableName")
	}
	return [2]string{n, n + alternate}, nil
}

// held is one of a key's durables that exists.
type held struct {
	name string
	info *js.ConsumerInfo
}

// existing answers which of a key's two durables exist, the older first.
func (s *Source) existing(ctx context.Context, names [2]string) ([]held, error) {
	var out []held
	for _, n := range names {
		c, err := s.js.Consumer(ctx, s.o.Stream, n)
		if errors.Is(err, js.ErrConsumerNotFound) {
			continue
		}
		if err != nil {
			return nil, unavailable(s.o.Stream, "look up the durable consumer", err)
		}
		out = append(out, held{name: n, info: c.CachedInfo()})
	}
	slices.SortFunc(out, func(a, b held) int { return a.info.Created.Compare(b.info.Created) })
	return out, nil
}

// DurableName is the default durable name of a key: "pipe_" and the key,
// any character outside A-Z, a-z, 0-9, "-" and "_" replaced by "_", and
// then, when one was, "_" and a hash of the key.
func DurableName(key string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, key)
	if safe == key {
		return "pipe_" + key
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	return fmt.Sprintf("pipe_%s_%016x", safe, h.Sum64())
}
