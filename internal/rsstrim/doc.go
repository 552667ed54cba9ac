// Package rsstrim hands back the resident pages of the program's own
// executable that start-up touched and the rest of the run will likely not:
// the package initialisers of every linked library (the cloud SDKs behind
// s3://, gs:// and azblob:// register protocols, endpoints and descriptors)
// fault in tens of megabytes of code and read-only data, and the kernel
// maps neighbouring pages of a cached file in with each fault. [Trim] tells
// the kernel to drop those mappings (madvise MADV_DONTNEED on the
// executable's file-backed, read-only mappings) and to fault them back one
// page at a time (MADV_RANDOM). The pages stay in the page cache; a page
// the program needs again is mapped back on its next use. Nothing the
// program wrote is touched: anonymous memory, the heap and writable data
// are left alone.
//
// It is a no-op outside Linux.
package rsstrim
