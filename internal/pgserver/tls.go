package pgserver

import (
	"fmt"
	"os"
	"path/filepath"
)

// TLS is a server certificate and its private key, both PEM, for
// [Options.TLS].
type TLS struct {
	CertPEM []byte
	KeyPEM  []byte
}

// The files the server reads by default (ssl_cert_file, ssl_key_file),
// relative to the data directory.
const (
	tlsCertFile = "server.crt"
	tlsKeyFile  = "server.key"
)

// writeTLS writes the certificate and key into the data directory, owned by
// the server's account, the key 0600 (the server refuses a key others may
// read). Nothing is written without Options.TLS.
func (s *Server) writeTLS() error {
	t := s.opts.TLS
	if t == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		pem  []byte
		mode os.FileMode
	}{{tlsCertFile, t.CertPEM, 0o644}, {tlsKeyFile, t.KeyPEM, 0o600}} {
		path := filepath.Join(s.dir, f.name)
		if err := os.WriteFile(path, f.pem, f.mode); err != nil {
			return fmt.Errorf("write the server's TLS files: %w", err)
		}
		if err := os.Chmod(path, f.mode); err != nil {
			return fmt.Errorf("write the server's TLS files: %w", err)
		}
		if err := s.acct.chown(path); err != nil {
			return err
		}
	}
	return nil
}
