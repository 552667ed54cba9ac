package subject

import (
	"crypto/rand"
	"encoding/hex"
	"math/big"
	"regexp"
	"slices"
	"strconv"

	"github.com/google/uuid"

	"github.com/pipekit/pipe/errcode"
)

// value answers how row p's column c of n is inserted: an SQL expression
// ($? for its one parameter) and the parameter, or ok false to leave the
// column to its default. In order: the proof's Values, a key's column, a
// canary in a column that can hold text, the default, NULL, a value
// generated for the type.
func (s *seeder) value(n *node, c *column, p *people, set map[string]*string) (string, *string, bool, error) {
	if v, ok := s.given(n, c); ok {
		if v == nil {
			return "null", nil, true, nil
		}
		text, _ := constantText(v)
		return "$?::text::" + c.Type, &text, true, nil
	}
	if v, ok := set[c.Name]; ok {
		if v == nil {
			return "null", nil, true, nil
		}
		return "$?::text::" + c.Base, v, true, nil
	}
	if c.Generated || c.Identity {
		return "", nil, false, nil
	}
	if expr, arg, ok := s.canary(n, c, p); ok {
		return expr, arg, true, nil
	}
	if c.HasDefault || !c.NotNull {
		return "", nil, false, nil
	}
	return s.generated(n, c)
}

// given answers the proof's value for c, if it has one.
func (s *seeder) given(n *node, c *column) (any, bool) {
	for _, name := range []string{n.name, n.t.Name} {
		if vals, ok := s.o.Values[name]; ok {
			if v, ok := vals[c.Name]; ok {
				return v, true
			}
		}
	}
	return nil, false
}

// canary answers a canary value for a column that can hold text: the
// person's token and a sequence number (unique), as text, as a JSON
// object for json, as a one-element array for an array of text. A column
// too short for one is reported short.
func (s *seeder) canary(n *node, c *column, p *people) (string, *string, bool) {
	if !canaryType(c) {
		return "", nil, false
	}
	s.seq++
	v := p.token + "." + strconv.Itoa(s.seq)
	rep := s.report[n]
	if limit := typeLength(c.Type); limit > 0 && limit < len(v) {
		if rep != nil && p.who == "person" && !slices.Contains(rep.Short, c.Name) {
			rep.Short = append(rep.Short, c.Name)
		}
		return "", nil, false
	}
	if rep != nil && p.who == "person" && !slices.Contains(rep.Canaries, c.Name) {
		rep.Canaries = append(rep.Canaries, c.Name)
	}
	switch {
	case c.BaseTypeOID == 114 || c.BaseTypeOID == 3802:
		v = `{"canary": "` + v + `"}`
	case c.Category == "A":
		v = "{" + v + "}"
	}
	return "$?::text::" + c.Type, &v, true
}

// canaryType reports whether a column can hold a canary: a string type
// (text, varchar, char, citext...), json, jsonb, or an array of text.
func canaryType(c *column) bool {
	switch {
	case c.Category == "S", c.BaseTypeOID == 114, c.BaseTypeOID == 3802:
		return true
	case c.Category == "A":
		return c.Elem == "text" || c.Elem == "character varying"
	}
	return false
}

var lengthOf = regexp.MustCompile(`^(?:character varying|character|bit varying|bit)\((\d+)\)`)

// typeLength answers the declared length of a varchar(n) or char(n), or 0.
func typeLength(typ string) int {
	m := lengthOf.FindStringSubmatch(typ)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// generated answers a value for a NOT NULL column without a default, by
// its type: random integers (unlikely to meet a real key), a fixed date
// and time, a random uuid, an enum's first label, an empty array or json.
func (s *seeder) generated(n *node, c *column) (string, *string, bool, error) {
	text := ""
	switch c.BaseTypeOID {
	case 16:
		text = "false"
	case 21:
		text = randomInt(20000, 12000)
	case 23:
		text = randomInt(1_000_000_000, 1_000_000_000)
	case 1700:
		text = numericValue(c.Type)
	case 20:
		text = randomInt(1<<40, 1<<50)
	case 700, 701:
		text = randomInt(1, 1_000_000) + ".5"
	case 1082:
		text = "2000-01-01"
	case 1114, 1184:
		text = "2000-01-01 00:00:00"
	case 1083, 1266:
		text = "00:00:00"
	case 1186:
		text = "1 hour"
	case 2950:
		text = uuid.NewString()
	case 869:
		text = "192.0.2.1"
	case 650:
		text = "192.0.2.0/24"
	case 17:
		text = `\x00`
	case 114, 3802:
		text = "{}"
	}
	switch {
	case text != "":
	case c.Category == "E":
		return "(enum_range(null::" + c.Type + "))[1]", nil, true, nil
	case c.Category == "A":
		text = "{}"
	case c.Category == "S":
		text = randomHex(max(typeLength(c.Type), 1))
	default:
		return "", nil, false, errcode.New(errcode.SubjectProofUnseedable,
			"subject proof: table %s: no value can be generated for column %s of type %s", n.t.Name, c.Name, c.Type).
			WithFix("give the column a value in the proof's values (ProofOptions.Values, or \"proof\": {\"values\": ...} in the file)")
	}
	return "$?::text::" + c.Type, &text, true, nil
}

var numericOf = regexp.MustCompile(`^numeric\((\d+),(\d+)\)`)

// numericValue answers a random integer a numeric column holds: below
// 10^(p-s) for numeric(p,s), 0 when p = s.
func numericValue(typ string) string {
	digits := 9
	if m := numericOf.FindStringSubmatch(typ); m != nil {
		p, _ := strconv.Atoi(m[1])
		s, _ := strconv.Atoi(m[2])
		digits = min(p-s, 9)
	}
	if digits <= 0 {
		return "0"
	}
	span := int64(1)
	for range digits {
		span *= 10
	}
	return randomInt(1, span-1)
}

func randomInt(base, span int64) string {
	n, _ := rand.Int(rand.Reader, big.NewInt(span))
	return strconv.FormatInt(base+n.Int64(), 10)
}

func randomHex(n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)[:n]
}
