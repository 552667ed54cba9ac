package coerce

import "testing"

func TestUUID(t *testing.T) {
	const want = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
	runCases(t, "uuid", []tcase{
		{str(want), want},
		{str("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"), want},
		{str("{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}"), want},
		{str("a0eebc999c0b4ef8bb6d6bb9bd380a11"), want},
		{str("{a0eebc999c0b4ef8bb6d6bb9bd380a11}"), want},
		{str(" " + want + " "), want},
		{str("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1"), refused},
		{str("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1g"), refused},
		{str("a0eebc999-c0b-4ef8-bb6d-6bb9bd380a11"), refused},
		{str("urn:uuid:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), refused},
		{str("{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), refused},
		{num("1"), refused},
	})
}
