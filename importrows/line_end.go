package importrows

import "github.com/pipekit/pipe/importrows/internal/split"

// lineEndCR is the plan's LineEnd for a CSV file whose lines end with a bare
// CR (classic Mac). "" is LF, with or without a CR before it.
const lineEndCR = "cr"

// settleLineEnd sets the plan's line end from the file's first bytes, as
// COPY reads a file: its first line's.
func (p *plan) settleLineEnd(head []byte, eof bool) {
	sp, _ := p.csvSplit(0)
	if end, known := sp.Detect(head, eof); known && end == split.CR {
		p.LineEnd = lineEndCR
	}
}

// lineEnd answers the plan's line end for the splitter and the field parser.
func (p *plan) lineEnd() split.LineEnd {
	if p.LineEnd == lineEndCR {
		return split.CR
	}
	return split.LF
}

// csvSplit answers the splitter and the field parser of the plan's CSV file.
func (p *plan) csvSplit(maxRecord int) (split.Splitter, split.FieldParser) {
	d, end := p.Delimiter[0], p.lineEnd()
	return split.Splitter{Quote: '"', MaxRecord: maxRecord, Lenient: p.Lenient, Delim: d, End: end},
		split.FieldParser{Delim: d, Quote: '"', Lenient: p.Lenient, End: end}
}
