package coerce

import "testing"

func TestBoolean(t *testing.T) {
	var cases []tcase
	for _, s := range []string{"true", "TRUE", "t", "yes", "Y", "on", "1", " True "} {
		cases = append(cases, tcase{str(s), "true"})
	}
	for _, s := range []string{"false", "F", "no", "n", "OFF", "0"} {
		cases = append(cases, tcase{str(s), "false"})
	}
	for _, s := range []string{"tr", "ye", "of", "2", "truee", "yes!", "nope"} {
		cases = append(cases, tcase{str(s), refused})
	}
	cases = append(cases, tcase{bln(true), "true"}, tcase{bln(false), "false"}, tcase{num("1"), refused})
	runCases(t, "boolean", cases)
}
