// Package hostile makes hostile input for the tests that prove an import
// stays bounded whatever it is given: decompression bombs (zstd and gzip
// streams that inflate a thousandfold, a zstd window of 512 MiB or one
// claimed of a GiB) and Parquet files whose pages inflate past their
// headers, whose values expand a millionfold, whose columns together or
// whose footer ask for more memory than a worker has, or whose pages no
// codec can read.
//
// Every bomb is made on the fly, by a generator that holds a few KiB of
// what it writes (never the inflated data), so a test makes the ones it
// needs in its temporary directory; none is ever committed. The Parquet
// files are written by hand ([Parquet]): parquet-go's writer would not
// write a lie.
package hostile
