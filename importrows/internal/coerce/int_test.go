package coerce

import "testing"

func TestInteger(t *testing.T) {
	runCases(t, "smallint", []tcase{
		{str("32767"), "32767"},
		{str("-32768"), "-32768"},
		{str("32768"), refused},
		{str("-32769"), refused},
	})
	runCases(t, "integer", []tcase{
		{str("42"), "42"},
		{str(" +007 "), "7"},
		{str("-0"), "0"},
		{str("2147483647"), "2147483647"},
		{str("2147483648"), refused},
		{str("1.0"), refused},
		{str("1e3"), refused},
		{str("1_000"), refused},
		{str("0x10"), refused},
		{str("+"), refused},
		{str("1 2"), refused},
		{str("١"), refused},
		{num("12"), "12"},
		{num("1.0"), "1"},
		{num("1e3"), "1000"},
		{num("1.5e1"), "15"},
		{num("-0.0"), "0"},
		{num("1.5"), refused},
		{num("1e-1"), refused},
		{num("1e10"), refused},
		{bln(true), refused},
		{raw("[1]"), refused},
	})
	runCases(t, "bigint", []tcase{
		{str("9223372036854775807"), "9223372036854775807"},
		{str("-9223372036854775808"), "-9223372036854775808"},
		{str("9223372036854775808"), refused},
		{str("-9223372036854775809"), refused},
		{str("00000000000000000000001"), "1"},
		{num("9.223372036854775807e18"), "9223372036854775807"},
		{num("-9223372036854775808"), "-9223372036854775808"},
		{num("1e19"), refused},
		{num("1e1000000"), refused},
		{num("0e1000000"), "0"},
	})
}
