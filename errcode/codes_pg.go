package errcode

// The code of PostgreSQL names (package pg). It is terminal: the same name,
// read again, is refused again.
const (
	// NameInvalid: a table or column name that does not parse as SQL writes
	// names (an unclosed quote, a space or a dash outside quotes, more parts
	// than schema.table), is empty, holds a NUL, or is longer than the 63
	// bytes PostgreSQL keeps of a name.
	NameInvalid Code = "X_NAME_INVALID"
)

func init() { Register(NameInvalid, Terminal) }
