// Package coerce turns one input value of an import — a [Cell] read from a
// CSV field or an NDJSON value — into a value of its column's [Type]: the
// text PostgreSQL's input function accepts, appended as a field of COPY's
// CSV format by [Type.AppendCSV], or a Go value by [Type.Value].
//
// A refused cell is answered as the code X_IMPORT_FIELD_INVALID, never an
// error holding the value: the caller reports the line, the field and the
// code. AppendCSV allocates nothing when its buffer has room.
//
// # Types
//
// [ParseType] reads format_type()'s spellings and the usual short names:
// text; character varying(n) and character(n), their length counted in
// characters; smallint, integer, bigint; numeric and numeric(p,s); real,
// double precision; boolean; uuid; date; timestamp and timestamp with time
// zone, with an optional precision; time; json; jsonb; bytea; unknown, a
// type pipe does not read (interval, inet, a range, an enum...), whose text
// is kept as written, as a text column's is, for the server's input
// function to read; and arrays of each ("integer[]").
//
// # Rules
//
// The rules are those of a form: lenient in spelling, strict in meaning.
//
//   - NULL: a Null cell is NULL for every type. A String cell of nothing but
//     ASCII whitespace is NULL for every type but the text ones. Whether a
//     NOT NULL column takes it is the caller's question ([Type.IsNull]).
//   - Whitespace: String cells are trimmed of surrounding ASCII whitespace
//     for every type but text, character varying and character, which keep
//     them verbatim, even empty.
//   - Text: valid UTF-8 without NUL, within the declared length; a Number
//     or JSON cell is its JSON text, a Bool cell true or false. A value
//     longer than the length is refused even when the excess is spaces
//     (which PostgreSQL would cut); character(n) is not padded here.
//   - Integers: [sign] digits in range of the width (leading zeros allowed);
//     no fraction, exponent or underscore. A Number cell may be any number
//     of integral value (1.0, 1e3, not 1.5 or 1e-1).
//   - numeric: [sign] digits [. digits] [e [sign] digits], or NaN, Infinity,
//     inf, -Infinity in any case. Emitted in PostgreSQL's canonical form:
//     numeric(p,s) rounds to s digits half away from zero as PostgreSQL
//     does, and refuses a value that rounds to 10^(p-s) or more, and
//     infinity; numeric keeps the scale as written (1.50 stays 1.50, 1e3 is
//     1000). Values beyond numeric's storage (131072 digits before the
//     point, 16383 after) are refused.
//   - real, double precision: numeric's syntax, and NaN and the infinities;
//     a value too large for the width, or nonzero but rounding to zero, is
//     refused. Emitted as the shortest text that reads back to the same
//     float.
//   - boolean: true, t, yes, y, on, 1, false, f, no, n, off, 0 in any case
//     (PostgreSQL's unique prefixes are refused); a Bool cell as is.
//     Emitted as true or false.
//   - uuid: 32 hex digits in any case, bare or grouped 8-4-4-4-12, either
//     optionally in braces. Emitted canonical, lowercase.
//   - date: YYYY-MM-DD (four digits of year or more), a real day, with an
//     optional trailing BC, within PostgreSQL's range (4714-11-24 BC to
//     5874897-12-31); infinity, +infinity and -infinity in any case.
//   - timestamp with time zone: a date; or a date, T (or t, or a space),
//     HH:MM[:SS[.fraction]], and an optional offset Z, ±HH, ±HHMM, ±HH:MM
//     or ±HH:MM:SS (at most 15:59:59). A value without an offset is UTC —
//     the importer's sessions run with TimeZone=UTC, and a file's wall
//     times are not the server's. Emitted as RFC 3339 with its offset.
//     The date's BC, its range (to 294276-12-31 23:59:59.999999 UTC) and
//     the infinities as for date; 24:00 and leap seconds are refused.
//   - timestamp without time zone: the same without an offset, which is
//     refused rather than ignored as PostgreSQL would.
//   - Fractions of a second are rounded to microseconds as PostgreSQL does
//     (the fraction as a double, half to even), then to the declared
//     precision half away from 2000-01-01.
//   - time: HH:MM[:SS[.fraction]] up to 24:00:00, no offset.
//   - json, jsonb: a String cell must be a JSON document; a JSON, Number or
//     Bool cell is its JSON text. jsonb also refuses \u0000, unpaired
//     surrogate escapes and numbers numeric cannot hold.
//   - bytea: PostgreSQL's hex format, \x then pairs of hex digits. The
//     escape format and base64 are refused: neither can be told from text
//     reliably.
//   - Arrays: a String cell holding a JSON array ([1,"a",null]) or a
//     PostgreSQL array literal ({1,"a b",NULL}), or a JSON cell holding an
//     array; a multidimensional one rectangular, as PostgreSQL requires
//     ({{1,2},{3,4}}, [[1,2],[3,4]]; a JSON array in a json[] or jsonb[]
//     is an element), a literal's explicit bounds ([0:1]={1,2}) kept when
//     they fit its shape. Each element is coerced by the element type's
//     rules (an element of a JSON array by its JSON kind), and the array is
//     emitted as an array literal, elements quoted and backslash-escaped as
//     array input needs.
package coerce
