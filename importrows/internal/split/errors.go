package split

import (
	"strconv"

	"github.com/pipekit/pipe/errcode"
)

// The metadata keys of the errors this package returns.
const (
	// MetaByteOffset is the file offset of the record's first byte.
	MetaByteOffset = "byteOffset"
	// MetaLine is the 1-based line the record starts on.
	MetaLine = "line"
	// MetaField is the 1-based position of the refused field.
	MetaField = "field"
	// MetaRule names the CSV rule a record broke (see the Rule constants).
	MetaRule = "rule"
)

// The CSV rules a refused record broke, as MetaRule names them.
const (
	// RuleBareQuote: a quote inside an unquoted field (37°36'37.8"N), which
	// a lenient parser keeps as data.
	RuleBareQuote = "bare-quote"
	// RuleTextAfterQuote: text between a quoted field's closing quote and
	// the next delimiter.
	RuleTextAfterQuote = "text-after-quote"
	// RuleUnclosedQuote: a quoted field that is never closed.
	RuleUnclosedQuote = "unclosed-quote"
	// RuleStrayLineFeed: a line feed outside quotes in a file whose lines
	// end with a bare carriage return.
	RuleStrayLineFeed = "stray-line-feed"
)

// tooLarge reports a record at off that is longer than limit bytes.
func tooLarge(off, line int64, limit int) error {
	return errcode.New(errcode.ImportRecordTooLarge,
		"record at byte %d (line %d) is longer than %d bytes", off, line, limit).
		WithFix("raise the maximum record size, or look for an unclosed quote that makes the rest of the file one record").
		WithMeta(MetaByteOffset, strconv.FormatInt(off, 10)).
		WithMeta(MetaLine, strconv.FormatInt(line, 10))
}

// unclosed reports a record that ends the file inside a quoted field.
func unclosed(off, line int64) error {
	return errcode.New(errcode.ImportRecordInvalid,
		"record at byte %d (line %d) ends the file inside a quoted field", off, line).
		WithFix(`close the quoted field; a quote inside one is written twice ("")`).
		WithMeta(MetaRule, RuleUnclosedQuote).
		WithMeta(MetaByteOffset, strconv.FormatInt(off, 10)).
		WithMeta(MetaLine, strconv.FormatInt(line, 10))
}

// badField reports a field whose quoting is malformed; rule names the rule
// it broke and what says it. The caller adds the record's offset and line.
func badField(field int, rule, what string) error {
	fix := `quote the whole field and write each quote inside it twice ("")`
	if rule == RuleBareQuote {
		fix += `, or read such quotes as data (lenient quotes: pipe import --quotes lenient)`
	}
	return errcode.New(errcode.ImportRecordInvalid, "field %d: %s", field, what).
		WithFix(fix).
		WithMeta(MetaField, strconv.Itoa(field)).
		WithMeta(MetaRule, rule)
}
