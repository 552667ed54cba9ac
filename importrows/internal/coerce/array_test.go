package coerce

import "testing"

func TestArray(t *testing.T) {
	runCases(t, "integer[]", []tcase{
		{str("{1,2,3}"), `"{1,2,3}"`},
		{str(" { 1 , +2 ,NULL, null } "), `"{1,2,NULL,NULL}"`},
		{str(`{"1"," 2 "}`), `"{1,2}"`},
		{str(`{""}`), `{NULL}`},
		{str("{}"), "{}"},
		{str("{ }"), "{}"},
		{str("[1, 2, null]"), `"{1,2,NULL}"`},
		{str(`["3", 4.0]`), `"{3,4}"`},
		{str("[]"), "{}"},
		{raw("[5,6]"), `"{5,6}"`},
		{str("{1,,2}"), refused},
		{str("{1,}"), refused},
		{str("{,}"), refused},
		{str("{{1,2},{3,4}}"), `"{{1,2},{3,4}}"`},
		{str(" { { 1 , NULL } , {3,4} } "), `"{{1,NULL},{3,4}}"`},
		{str("{{{1},{2}},{{3},{4}}}"), `"{{{1},{2}},{{3},{4}}}"`},
		{str("[[1,2]]"), `"{{1,2}}"`},
		{str("[[1,2],[3,null]]"), `"{{1,2},{3,NULL}}"`},
		{str("{{1,2},{3}}"), refused},
		{str("{{1,2},3}"), refused},
		{str("{1,{2}}"), refused},
		{str("{{1,2},NULL}"), refused},
		{str("{{}}"), refused},
		{str("[[1],[2,3]]"), refused},
		{str("{{{{{{{1}}}}}}}"), refused},
		{str("{{{{{{1}}}}}}"), "{{{{{{1}}}}}}"},
		{str("[1:2]={1,2}"), `"[1:2]={1,2}"`},
		{str(" [0:1]={ 1 , 2 } "), `"[0:1]={1,2}"`},
		{str("[-2:-1][1:1]={{1},{2}}"), `"[-2:-1][1:1]={{1},{2}}"`},
		{str("[0:2]={1,2}"), refused},
		{str("[1:0]={}"), refused},
		{str("[0:1]={{1},{2}}"), refused},
		{str("[0:1]=[1,2]"), refused},
		{str("[0:99999999999]={1}"), refused},
		{str("[0:1]"), refused},
		{str("{1,2"), refused},
		{str("{1,2}x"), refused},
		{str("{1}}"), refused},
		{str("{a}"), refused},
		{str("[1.5]"), refused},
		{str("[true]"), refused},
		{str("{2147483648}"), refused},
		{str("1,2"), refused},
		{raw(`{"a":1}`), refused},
		{num("1"), refused},
	})
	runCases(t, "text[]", []tcase{
		{str(`{a,"b c",NULL,"NULL",""}`), `"{a,""b c"",NULL,""NULL"",""""}"`},
		{str(`{ a b , c }`), `"{""a b"",c}"`},
		{str(`{"quote \" and \\ back"}`), `"{""quote \"" and \\ back""}"`},
		{str(`{a\,b,c\"d,e\ }`), `"{""a,b"",""c\""d"",""e ""}"`},
		{str(`{"{x}"}`), `"{""{x}""}"`},
		{str(`{{"a,b","c\"d"},{"{e}",NULL}}`), `"{{""a,b"",""c\""d""},{""{e}"",NULL}}"`},
		{str(`{{"a}"},{b}}`), `"{{""a}""},{b}}"`},
		{str(`["a\nb", "\u00e9\ud83d\ude00", null, 1, true, {"k":1}]`), "\"{\"\"a\nb\"\",é😀,NULL,1,true,\"\"{\\\"\"k\\\"\":1}\"\"}\""},
		{str(`{"abc}`), refused},
		{str(`{a"b"}`), refused},
		{str(`{"a"b}`), refused},
		{str(`{a\}`), refused},
		{str("{\"\x00\"}"), refused},
	})
	runCases(t, "varchar(2)[]", []tcase{{str("{ab,c}"), `"{ab,c}"`}, {str("{abc}"), refused}})
	runCases(t, "uuid[]", []tcase{{str(`["A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"]`), "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}"}})
	runCases(t, "bytea[]", []tcase{{str(`{"\\x01"}`), `"{""\\x01""}"`}, {str(`{\\x01}`), `"{""\\x01""}"`}})
	runCases(t, "jsonb[]", []tcase{{str(`[{"a":1},[2]]`), `"{""{\""a\"":1}"",[2]}"`},
		{str(`["s", "4\u00e9", null, 42]`), `"{""\""s\"""",""\""4\\u00e9\"""",NULL,42}"`}})
	runCases(t, "numeric(3,1)[]", []tcase{{str("{1.25,-0.04}"), `"{1.3,0.0}"`}})
	runCases(t, "timestamptz[]", []tcase{{str(`["2024-01-02 03:04:05+02"]`), "{2024-01-02T03:04:05+02:00}"}})
	runCases(t, "boolean[]", []tcase{{str("[true,false,null]"), `"{true,false,NULL}"`}, {str("{yes,0}"), `"{true,false}"`}})
}
