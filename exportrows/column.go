package exportrows

// kind is how pipe reads and writes a column's values.
type kind uint8

const (
	kOther       kind = iota // a type pipe does not decode: its text, free text
	kPlain                   // a type pipe does not decode whose text is never free text
	kText                    // text, varchar, char, name
	kBool                    //
	kInt2                    //
	kInt4                    //
	kInt8                    //
	kFloat4                  //
	kFloat8                  //
	kNumeric                 // read as text: exact
	kUUID                    //
	kDate                    //
	kTimestamp               //
	kTimestamptz             //
	kJSON                    // read as text
	kJSONB                   // read as text
	kBytea                   //
	kArray                   // one dimension; elem says of what
)

// kinds maps the built-in type oids pipe decodes.
var kinds = map[uint32]kind{
	16: kBool, 17: kBytea, 19: kText, 20: kInt8, 21: kInt2, 23: kInt4, 25: kText,
	114: kJSON, 700: kFloat4, 701: kFloat8, 1042: kText, 1043: kText, 1082: kDate,
	1114: kTimestamp, 1184: kTimestamptz, 1700: kNumeric, 2950: kUUID, 3802: kJSONB,
	// read as text, never free text: oid, money, time, timetz, interval,
	// inet, cidr, macaddr, macaddr8, and int2vector and oidvector (arrays
	// to the catalog, whose subscripts start at 0, written "1 2 3").
	26: kPlain, 790: kPlain, 1083: kPlain, 1266: kPlain, 1186: kPlain,
	869: kPlain, 650: kPlain, 829: kPlain, 774: kPlain, 22: kPlain, 30: kPlain,
	// the same: the reg* types (a role "-" is none), xid, xid8, cid, tid,
	// the snapshots, pg_lsn, bit, varbit and the geometric types.
	24: kPlain, 2202: kPlain, 2203: kPlain, 2204: kPlain, 2205: kPlain, 2206: kPlain,
	3734: kPlain, 3769: kPlain, 4089: kPlain, 4096: kPlain, 4191: kPlain,
	28: kPlain, 5069: kPlain, 29: kPlain, 27: kPlain, 5038: kPlain, 2970: kPlain,
	3220: kPlain, 1560: kPlain, 1562: kPlain,
	600: kPlain, 601: kPlain, 602: kPlain, 603: kPlain, 604: kPlain, 628: kPlain, 718: kPlain,
}

func kindOf(oid uint32) kind {
	if k, ok := kinds[oid]; ok {
		return k
	}
	return kOther
}

// binaryWire reports whether values of k are read in PostgreSQL's binary
// form (decoded by pipe) rather than as text.
func (k kind) binaryWire() bool {
	switch k {
	case kOther, kPlain, kNumeric, kJSON, kJSONB:
		return false
	}
	return true
}

// guarded reports whether a CSV cell of kind k is free text that a
// spreadsheet could run as a formula.
func (k kind) guarded() bool { return k == kText || k == kOther }

// column is one column a page reads, ready to encode.
type column struct {
	colType
	kind     kind
	elem     kind // for kArray
	binary   bool // read in binary form
	exported bool // written to the file (else only read for the key)
	prec     int  // numeric(p,s): p, s; 0 when not declared
	scale    int
}

// columnsOf answers the plan's columns, exported then hidden, with how the
// plan's format reads each.
func columnsOf(p plan) []column {
	cols := make([]column, 0, len(p.Columns)+len(p.Hidden))
	for i, t := range append(append([]colType(nil), p.Columns...), p.Hidden...) {
		c := column{colType: t, kind: kindOf(t.OID), exported: i < len(p.Columns)}
		if _, known := kinds[t.OID]; t.Elem != 0 && !known {
			c.kind, c.elem = kArray, kindOf(t.Elem)
		}
		c.binary = c.kind.binaryWire() && !(c.kind == kArray && p.Settings.Format == CSV)
		if c.kind == kNumeric && t.Mod >= 4 {
			m := t.Mod - 4
			c.prec, c.scale = int(m>>16&0xffff), int(m&0x7ff)
			if c.scale&0x400 != 0 {
				c.scale -= 0x800 // a negative scale (PostgreSQL 15+)
			}
		}
		cols = append(cols, c)
	}
	return cols
}

// expr answers the column's select expression: the column, or for an
// array whose elements are read as text, the array cast to text[].
func (c column) expr() string {
	if c.kind == kArray && c.binary && !c.elem.binaryWire() {
		return quote(c.Name) + "::text[]"
	}
	return quote(c.Name)
}

// decimal reports whether a numeric column is written as a Parquet
// DECIMAL: its precision declared, at most 38, and its scale in 0..p.
func (c column) decimal() bool {
	return c.kind == kNumeric && c.prec >= 1 && c.prec <= 38 && c.scale >= 0 && c.scale <= c.prec
}
