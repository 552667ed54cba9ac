package pipeline

import (
	"fmt"
	"math/rand/v2"
	"os"
	"sync/atomic"
)

// workerIDs numbers the workers this process makes from a random start.
var workerIDs = func() *atomic.Uint32 {
	var n atomic.Uint32
	n.Store(rand.Uint32())
	return &n
}()

// defaultWorkerID answers host-pid-xxxx, xxxx the next of this process's
// numbers: unique among its workers for 65,536 of them.
func defaultWorkerID() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d-%04x", host, os.Getpid(), uint16(workerIDs.Add(1)))
}
