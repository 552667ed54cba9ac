package errcode

// HostRefused: a request to the web console, or to `pipe serve` given
// --allow-host, named a Host the server does not answer to (HTTP 421): a
// page whose DNS name was rebound to the server's address, or a name
// behind a proxy that was not allowed. The refusal never quotes the Host.
const HostRefused Code = "X_HOST_REFUSED"

func init() { Register(HostRefused, Terminal) }
