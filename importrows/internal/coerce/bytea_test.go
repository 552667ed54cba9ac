package coerce

import "testing"

func TestBytea(t *testing.T) {
	runCases(t, "bytea", []tcase{
		{str(`\x0aFF`), `\x0aff`},
		{str(`\x`), `\x`},
		{str(` \xdeadbeef `), `\xdeadbeef`},
		{str(`\x0`), refused},
		{str(`\x0g`), refused},
		{str(`\X0a`), refused},
		{str(`\x0a 0b`), refused},
		{str("aGVsbG8="), refused},
		{str(`\001`), refused},
	})
}
