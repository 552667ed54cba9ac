package coerce

import "testing"

func TestNumeric(t *testing.T) {
	runCases(t, "numeric", []tcase{
		{str("1.50"), "1.50"},
		{str(" -0012.340 "), "-12.340"},
		{str("+.5"), "0.5"},
		{str("1."), "1"},
		{str("1e3"), "1000"},
		{str("1.5e-3"), "0.0015"},
		{str("1.50E1"), "15.0"},
		{str("-0.00"), "0.00"},
		{str("0e5"), "0"},
		{str("nan"), "NaN"},
		{str("-Inf"), "-Infinity"},
		{str("+infinity"), "Infinity"},
		{str("+NaN"), refused},
		{str("1e"), refused},
		{str("."), refused},
		{str("1,5"), refused},
		{str("1e1000001"), refused},
		{str("1e131072"), refused},
		{str("1e-16384"), refused},
		{num("123.456"), "123.456"},
		{bln(true), refused},
	})
	runCases(t, "numeric(5,2)", []tcase{
		{str("123.456"), "123.46"},
		{str("123.455"), "123.46"},
		{str("-123.455"), "-123.46"},
		{str("999.994"), "999.99"},
		{str("999.995"), refused},
		{str("1000"), refused},
		{str("-0.001"), "0.00"},
		{str("-0.005"), "-0.01"},
		{str("0.004e2"), "0.40"},
		{str("1e-10000"), "0.00"},
		{str("NaN"), "NaN"},
		{str("Infinity"), refused},
		{num("1e2"), "100.00"},
	})
	runCases(t, "numeric(5)", []tcase{{str("99999.5"), refused}, {str("12345.5"), "12346"}, {str("1234.4"), "1234"}, {str("99999.4"), "99999"}})
	runCases(t, "numeric(5,-2)", []tcase{{str("12345"), "12300"}, {str("12350"), "12400"}, {str("49"), "0"}, {str("50"), "100"}, {str("9999949"), "9999900"}, {str("9999950"), refused}})
	runCases(t, "numeric(2,4)", []tcase{{str("0.0012"), "0.0012"}, {str("0.00995"), refused}, {str("0.012"), refused}, {str("0.00994"), "0.0099"}})
	runCases(t, "decimal(3,1)", []tcase{{str("99.94"), "99.9"}, {str("99.95"), refused}, {str("0.05"), "0.1"}, {str("0.04"), "0.0"}})
}
