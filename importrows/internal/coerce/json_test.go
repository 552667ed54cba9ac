package coerce

import (
	"strings"
	"testing"
)

func TestJSON(t *testing.T) {
	for _, typ := range []string{"json", "jsonb"} {
		runCases(t, typ, []tcase{
			{str(`{"a": [1, 2]}`), `"{""a"": [1, 2]}"`},
			{str(` [true] `), `[true]`},
			{str(`"text"`), `"""text"""`},
			{str(`12`), `12`},
			{raw(`{"b":null}`), `"{""b"":null}"`},
			{num(`1.5e3`), `1.5e3`},
			{bln(true), `true`},
			{str(`hello`), refused},
			{str(`{"a":1`), refused},
			{str(`{'a':1}`), refused},
			{str("\"\xff\""), refused},
			{raw(`{"a":}`), refused},
		})
	}
	runCases(t, "json", []tcase{
		{str(`"\u0000"`), `"""\u0000"""`},
		{str(`"\ud800"`), `"""\ud800"""`},
		{str(`[1e200000]`), `[1e200000]`},
	})
	runCases(t, "jsonb", []tcase{
		{str(`"\u0000"`), refused},
		{str(`{"a":"x\u0000"}`), refused},
		{str(`"\\u0000"`), `"""\\u0000"""`},
		{str(`"\ud800"`), refused},
		{str(`"\udc00"`), refused},
		{str(`"\ud800\u0041"`), refused},
		{str(`"\ud83d\ude00"`), `"""\ud83d\ude00"""`},
		{str(`[1e200000]`), refused},
		{str(`[1e-20000]`), refused},
		{str(`[0e200000]`), `[0e200000]`},
		{str(`{"1e200000":1}`), `"{""1e200000"":1}"`},
	})
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	runCases(t, "jsonb", []tcase{{str(deep), deep}})
}
