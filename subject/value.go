package subject

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// constantText answers the text PostgreSQL reads an anonymize constant
// from: a string as it is, a number or bool as Go writes it, a map or a
// slice as JSON (for a json column), a time in RFC 3339, anything with a
// String method by it.
func constantText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(x), true
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case time.Time:
		return x.Format(time.RFC3339Nano), true
	case map[string]any, []any:
		b, err := json.Marshal(x)
		return string(b), err == nil
	case fmt.Stringer:
		return x.String(), true
	}
	return "", false
}

// placeholders answers the {column} names in a prefix, in order.
func placeholders(prefix string) []string {
	var out []string
	for rest := prefix; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return append(out, rest[i+1:])
		}
		out = append(out, rest[i+1:i+j])
		rest = rest[i+j+1:]
	}
}
