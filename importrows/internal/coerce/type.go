package coerce

import (
	"strconv"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// base is a scalar column type.
type base uint8

const (
	invalid base = iota
	text
	varchar
	bpchar
	int2
	int4
	int8
	numeric
	float4
	float8
	boolean
	uuidType
	date
	timestamptz
	timestamp
	timeOfDay
	jsonType
	jsonb
	bytea
	// unknown is a type pipe does not read: its text goes to PostgreSQL's
	// input function as written, as an untyped literal does.
	unknown
)

// baseNames are format_type()'s spellings, which [Type.String] answers.
var baseNames = [...]string{
	text: "text", varchar: "character varying", bpchar: "character",
	int2: "smallint", int4: "integer", int8: "bigint", numeric: "numeric",
	float4: "real", float8: "double precision", boolean: "boolean", uuidType: "uuid",
	date: "date", timestamptz: "timestamp with time zone", timestamp: "timestamp without time zone",
	timeOfDay: "time without time zone", jsonType: "json", jsonb: "jsonb", bytea: "bytea",
	unknown: "unknown",
}

// aliases maps every accepted spelling, modifier removed, to its type.
var aliases = map[string]base{
	"text": text, "character varying": varchar, "varchar": varchar,
	"character": bpchar, "char": bpchar, "bpchar": bpchar,
	"smallint": int2, "int2": int2, "integer": int4, "int": int4, "int4": int4,
	"bigint": int8, "int8": int8, "numeric": numeric, "decimal": numeric,
	"real": float4, "float4": float4, "double precision": float8, "float8": float8, "float": float8,
	"boolean": boolean, "bool": boolean, "uuid": uuidType, "date": date,
	"timestamp with time zone": timestamptz, "timestamptz": timestamptz,
	"timestamp without time zone": timestamp, "timestamp": timestamp,
	"time without time zone": timeOfDay, "time": timeOfDay,
	"json": jsonType, "jsonb": jsonb, "bytea": bytea, "unknown": unknown,
}

// A Type is a column's target type. The zero Type is no type: it refuses
// every cell but a NULL. Build one with [ParseType].
type Type struct {
	base  base
	array bool
	// mod is the type modifier, -1 when none: the length of character
	// types, the precision of numeric, the fractional second digits of
	// timestamps and time.
	mod   int32
	scale int32 // numeric's scale, when mod is set
}

// ParseType parses a type as PostgreSQL's format_type() spells it
// ("character varying(20)", "numeric(10,2)", "timestamp(3) with time zone",
// "integer[]") or by a short name ("varchar(20)", "int8", "timestamptz",
// "bool", "decimal(10,2)"), case-insensitively. A type it cannot coerce is
// an error of code X_IMPORT_TABLE_INVALID naming it.
func ParseType(s string) (Type, error) {
	t, ok := parseType(strings.ToLower(strings.Join(strings.Fields(s), " ")))
	if !ok {
		return Type{}, errcode.New(errcode.ImportTableInvalid, "column type %q is not supported", s).
			WithFix("use one of the types the import coerces (see package coerce), or import into text and convert in SQL")
	}
	return t, nil
}

func parseType(s string) (Type, bool) {
	t := Type{mod: -1}
	if rest, ok := strings.CutSuffix(s, "[]"); ok {
		t.array, s = true, strings.TrimSpace(rest)
	}
	name, args, ok := cutModifier(s)
	if !ok {
		return t, false
	}
	if t.base, ok = aliases[name]; !ok {
		return t, false
	}
	if t.base == bpchar && name != "bpchar" && args == nil {
		args = []int{1} // plain character is character(1)
	}
	return t, t.setModifier(args)
}

// cutModifier splits "timestamp(3) with time zone" into its name without the
// modifier and the modifier's integers.
func cutModifier(s string) (string, []int, bool) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return s, nil, true
	}
	end := strings.IndexByte(s, ')')
	if end < open {
		return "", nil, false
	}
	name := strings.TrimSpace(s[:open])
	if after := strings.TrimSpace(s[end+1:]); after != "" {
		name += " " + after
	}
	var args []int
	for _, f := range strings.Split(s[open+1:end], ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return "", nil, false
		}
		args = append(args, n)
	}
	return name, args, true
}

// setModifier checks args against PostgreSQL's bounds for t's type.
func (t *Type) setModifier(args []int) bool {
	if len(args) == 0 {
		return true
	}
	switch t.base {
	case varchar, bpchar:
		t.mod = int32(args[0])
		return len(args) == 1 && args[0] >= 1 && args[0] <= 10485760
	case numeric:
		t.mod = int32(args[0])
		if len(args) == 2 {
			if args[1] < -1000 || args[1] > 1000 {
				return false // checked before int32 cuts it into bounds
			}
			t.scale = int32(args[1])
		}
		return len(args) <= 2 && args[0] >= 1 && args[0] <= 1000
	case timestamptz, timestamp, timeOfDay:
		t.mod = int32(args[0])
		return len(args) == 1 && args[0] >= 0 && args[0] <= 6
	}
	return false
}

// String answers the type as format_type() spells it.
func (t Type) String() string {
	if t.base == invalid || int(t.base) >= len(baseNames) {
		return "invalid"
	}
	s := baseNames[t.base]
	switch {
	case t.base == bpchar && t.mod < 0:
		s = "bpchar"
	case t.mod < 0:
	case t.base == numeric:
		s += "(" + strconv.Itoa(int(t.mod)) + "," + strconv.Itoa(int(t.scale)) + ")"
	case t.base == timestamptz || t.base == timestamp || t.base == timeOfDay:
		name, zone, _ := strings.Cut(s, " ")
		s = name + "(" + strconv.Itoa(int(t.mod)) + ") " + zone
	default:
		s += "(" + strconv.Itoa(int(t.mod)) + ")"
	}
	if t.array {
		s += "[]"
	}
	return s
}

// elem answers an array type's element type.
func (t Type) elem() Type {
	t.array = false
	return t
}

// textual reports whether t keeps String cells verbatim.
func (t Type) textual() bool {
	return !t.array && (t.base == text || t.base == varchar || t.base == bpchar || t.base == unknown)
}

// Final reports whether a cell t refuses is refused by PostgreSQL too, so
// that there is nothing to ask the server: text, character varying and
// character (and arrays of them), which the server would cut to length on
// a cast where COPY refuses.
func (t Type) Final() bool {
	return t.base == text || t.base == varchar || t.base == bpchar
}

// Zoned reports whether t (or its element) is a timestamp with time zone,
// whose value without an offset PostgreSQL reads in the session's TimeZone
// and this package reads in UTC.
func (t Type) Zoned() bool { return t.base == timestamptz }
