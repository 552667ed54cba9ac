package coerce

import "testing"

func TestText(t *testing.T) {
	runCases(t, "text", []tcase{
		{str("  keep me  "), "  keep me  "},
		{str("héllo ✓"), "héllo ✓"},
		{num("1.50"), "1.50"},
		{bln(true), "true"},
		{bln(false), "false"},
		{raw(`{"a":1}`), `"{""a"":1}"`},
		{str("nul\x00"), refused},
		{str("bad \xff utf8"), refused},
	})
	runCases(t, "character varying(3)", []tcase{
		{str("abc"), "abc"},
		{str("äöü"), "äöü"},
		{str("abcd"), refused},
		{str("ab  "), refused},
	})
	runCases(t, "varchar", []tcase{{str("unlimited"), "unlimited"}})
	runCases(t, "char(2)", []tcase{{str("ab"), "ab"}, {str("a"), "a"}, {str("abc"), refused}})
	runCases(t, "character", []tcase{{str("a"), "a"}, {str("ab"), refused}})
	runCases(t, "bpchar", []tcase{{str("abc"), "abc"}})
}

// A type pipe does not read passes its text to the server as written.
func TestUnknown(t *testing.T) {
	runCases(t, "unknown", []tcase{
		{str(" 1 day 02:00 "), " 1 day 02:00 "},
		{str(""), `""`},
		{str(`(1,"x, y")`), `"(1,""x, y"")"`},
		{num("42"), "42"},
		{str("nul\x00"), refused},
	})
	runCases(t, "unknown[]", []tcase{
		{str(`{"[1,5)",empty}`), `"{""[1,5)"",empty}"`},
		{str(`["(1,\"x\")", null]`), `"{""(1,\""x\"")"",NULL}"`},
		{str("{{a},{b}}"), `"{{a},{b}}"`},
	})
}
