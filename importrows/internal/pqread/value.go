package pqread

// Kind is the kind of a [Value].
type Kind uint8

// The kinds of value.
const (
	// Null is a missing value.
	Null Kind = iota
	// String is text, in Value.Text.
	String
	// Number is a decimal or floating-point number, in Value.Text.
	Number
	// Bool is a boolean, in Value.Bool (and as "true" or "false" in Text).
	Bool
	// JSON is JSON text, in Value.Text.
	JSON
)

// String answers the kind's name.
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case String:
		return "string"
	case Number:
		return "number"
	case Bool:
		return "bool"
	case JSON:
		return "json"
	}
	return "unknown"
}

// Value is one cell of a row. Text holds the value's text for String, Number
// and JSON (and "true" or "false" for Bool); it is valid until the row's
// callback returns.
type Value struct {
	Kind Kind
	Text []byte
	Bool bool
}
