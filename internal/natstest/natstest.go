// Package natstest starts a NATS server with JetStream in the process, for
// runnable examples, which have no test to fail or to clean up after them
// (the tests' own helpers take NATS_URL first; see each package's
// helpers_test.go). It is imported by tests alone: the pipe binary does not
// link the server.
package natstest

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// JetStream starts a server on a free loopback port with its store in a
// temporary directory, and creates stream on it. It answers the server's
// URL, a JetStream client of it, and stop, which closes the client, shuts
// the server down and removes its store. It panics when any of that fails,
// as an example has no test to fail.
func JetStream(stream jetstream.StreamConfig) (url string, js jetstream.JetStream, stop func()) {
	dir, err := os.MkdirTemp("", "nats")
	if err != nil {
		panic(fmt.Sprintf("natstest: %v", err))
	}
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir, NoSigs: true})
	if err != nil {
		panic(fmt.Sprintf("natstest: %v", err))
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		panic("natstest: the NATS server did not start in 10 s")
	}
	nc, err := nats.Connect(s.ClientURL())
	if err == nil {
		js, err = jetstream.New(nc)
	}
	if err == nil {
		_, err = js.CreateStream(context.Background(), stream)
	}
	stop = func() {
		if nc != nil {
			nc.Close()
		}
		s.Shutdown()
		_ = os.RemoveAll(dir)
	}
	if err != nil {
		stop()
		panic(fmt.Sprintf("natstest: %v", err))
	}
	return s.ClientURL(), js, stop
}
