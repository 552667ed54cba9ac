package coerce

import "testing"

func TestFloat(t *testing.T) {
	runCases(t, "double precision", []tcase{
		{str("1.5"), "1.5"},
		{str(" 1e3 "), "1000"},
		{str("0.1"), "0.1"},
		{str("-0"), "-0"},
		{str(".5"), "0.5"},
		{str("1e308"), "1e+308"},
		{str("4.9e-324"), "5e-324"},
		{str("1e309"), refused},
		{str("1e-400"), refused},
		{str("NaN"), "NaN"},
		{str("infinity"), "Infinity"},
		{str("-inf"), "-Infinity"},
		{str("0x1p-2"), refused},
		{str("1_0"), refused},
		{str("nan(1)"), refused},
		{num("2.5e-3"), "0.0025"},
		{bln(false), refused},
	})
	runCases(t, "real", []tcase{
		{str("0.1"), "0.1"},
		{str("3.4028235e38"), "3.4028235e+38"},
		{str("3.5e38"), refused},
		{str("1e-40"), "1e-40"},
		{str("1e-50"), refused},
		{str("16777217"), "1.6777216e+07"},
	})
	runCases(t, "float8", []tcase{{str("2"), "2"}})
}
