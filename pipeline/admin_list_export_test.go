package pipeline

// ListStatement answers the statement and arguments List sends for f, for
// the plan tests.
func ListStatement(f ListFilter) (string, []any, error) {
	f, cursor, backward, err := f.validate()
	if err != nil {
		return "", nil, err
	}
	sql, args := buildList(f, cursor, backward)
	return sql, args, nil
}
