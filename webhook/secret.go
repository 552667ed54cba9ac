package webhook

import (
	"crypto/rand"
	"encoding/base64"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// SecretPrefix begins a Standard Webhooks secret: whsec_ and the key in
// base64.
const SecretPrefix = "whsec_"

// NewSecret answers a fresh signing secret: whsec_ and 32 random bytes in
// base64, as Standard Webhooks writes them.
func NewSecret() string {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // crypto/rand.Read never fails
	return SecretPrefix + base64.StdEncoding.EncodeToString(key)
}

// secretKey answers the HMAC key of a secret: the bytes a whsec_ secret
// encodes; any other secret's own bytes. An empty secret, or a whsec_ one
// that is not base64, is refused with code.
func secretKey(secret string, code errcode.Code) ([]byte, error) {
	if secret == "" {
		return nil, errcode.New(code, "a signing secret is empty").
			WithFix("give every secret a value: an unset environment variable signs with an empty key")
	}
	rest, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return []byte(secret), nil
	}
	key, err := base64.StdEncoding.DecodeString(rest)
	if err != nil || len(key) == 0 {
		return nil, errcode.New(code, "a whsec_ signing secret is not base64").
			WithFix("write the secret as whsec_ and its key in base64, as NewSecret makes it")
	}
	return key, nil
}

// secretKeys answers the keys of every secret; the first fault refuses all.
func secretKeys(secrets []string, code errcode.Code) ([][]byte, error) {
	if len(secrets) == 0 {
		return nil, errcode.New(code, "no signing secret").WithFix("give the endpoint at least one secret")
	}
	keys := make([][]byte, 0, len(secrets))
	for _, s := range secrets {
		k, err := secretKey(s, code)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, nil
}
