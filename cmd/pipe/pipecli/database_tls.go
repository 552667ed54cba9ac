package pipecli

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

// A TLS refusal is X_CONFIG_INVALID, not X_POSTGRES_UNAVAILABLE: the server
// answered, and what stands between it and the command is a setting — the
// URL's sslrootcert, host or sslmode, or the server's certificate. Trying
// again with the same URL fails the same way, so it is not an outage to
// wait out.

// tlsRefusal answers a coded error when err is a TLS handshake the client
// refused or a server that would not speak TLS, naming the URL setting to
// change; nil for any other failure. The messages name the database, host
// and port, never the URL.
func tlsRefusal(err error, cc *pgconn.Config, src source) error {
	where := fmt.Sprintf("database %s on %s:%d (URL from %s)", cc.Database, cc.Host, cc.Port, src)
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	switch {
	case errors.As(err, &unknown):
		return errcode.Wrap(err, errcode.ConfigInvalid,
			"refused the TLS certificate of %s: no certificate authority the client trusts signed it", where).
			WithFix("set the URL's sslrootcert to the file of the certificate authority that signed the server's certificate " +
				"(sslrootcert=/path/to/ca.crt)")
	case errors.As(err, &host):
		return errcode.Wrap(err, errcode.ConfigInvalid,
			"refused the TLS certificate of %s: it is for %s, not for host %s", where, certNames(host.Certificate), host.Host).
			WithFix("set the URL's host to a name the certificate holds, or have the server's certificate issued for this host " +
				"(sslmode=verify-ca checks the authority without the host name)")
	case errors.As(err, &invalid), errors.As(err, &verify):
		return errcode.Wrap(err, errcode.ConfigInvalid, "refused the TLS certificate of %s: %s", where, verifyReason(err)).
			WithFix("renew or reissue the server's certificate, or check the URL's sslrootcert and sslmode")
	case strings.Contains(err.Error(), "server refused TLS connection"):
		return errcode.Wrap(err, errcode.ConfigInvalid, "%s does not offer TLS, and the URL's sslmode requires it", where).
			WithFix("turn TLS on at the server (ssl=on with a certificate), or set the URL's sslmode to prefer or disable")
	}
	return nil
}

// certNames lists the host names and addresses a certificate is for.
func certNames(c *x509.Certificate) string {
	if c == nil {
		return "no host"
	}
	names := append([]string(nil), c.DNSNames...)
	for _, ip := range c.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) == 0 {
		return "no host"
	}
	return strings.Join(names, ", ")
}

// verifyReason answers why a certificate failed verification, in
// crypto/x509's words (expired, not yet valid, not a CA): no data from the
// URL.
func verifyReason(err error) string {
	var invalid x509.CertificateInvalidError
	if errors.As(err, &invalid) {
		return invalid.Error()
	}
	return "it failed verification"
}

// caFileRefusal answers a coded error when the URL's sslrootcert could not
// be read or holds no certificate; nil otherwise.
func caFileRefusal(err error, src source) error {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return errcode.Wrap(err, errcode.ConfigInvalid, "the sslrootcert file of the database URL from %s cannot be read", src).
			WithFix("set the URL's sslrootcert to the path of a readable PEM file of the certificate authority")
	case strings.Contains(err.Error(), "unable to add CA to cert pool"):
		return errcode.Wrap(err, errcode.ConfigInvalid, "the sslrootcert file of the database URL from %s holds no PEM certificate", src).
			WithFix("set the URL's sslrootcert to the certificate authority's certificate, PEM (-----BEGIN CERTIFICATE-----)")
	}
	return nil
}
