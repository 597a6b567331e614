package server

import (
	"errors"
	"strings"
	"testing"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// keyedSession is a session that authenticated with key (nil: none) and
// carries the permissions recorded during authentication.
type keyedSession struct {
	ssh.Session // nil: identify must need nothing else
	key         ssh.PublicKey
	perms       *gossh.Permissions
}

func (s keyedSession) PublicKey() ssh.PublicKey     { return s.key }
func (s keyedSession) Permissions() ssh.Permissions { return ssh.Permissions{Permissions: s.perms} }

// TestIdentifyTrustsOnlyTheFingerprintOfTheSessionKey calls identify with
// every combination of session key and recorded fingerprint. Today the SSH
// library resets the permissions on each authentication attempt, so a
// fingerprint recorded for a key that was only offered never reaches a
// session; this test keeps identify safe if a library upgrade stops doing so.
func TestIdentifyTrustsOnlyTheFingerprintOfTheSessionKey(t *testing.T) {
	signed, offered := newKey(t).PublicKey(), newKey(t).PublicKey()
	signedFP, offeredFP := gossh.FingerprintSHA256(signed), gossh.FingerprintSHA256(offered)
	recorded := func(fp string) *gossh.Permissions {
		return &gossh.Permissions{Extensions: map[string]string{fingerprintExt: fp}}
	}
	for _, tc := range []struct {
		name    string
		key     ssh.PublicKey
		perms   *gossh.Permissions
		account string // "" for a refusal; "guest:" for any guest
	}{
		{"key with its own fingerprint", signed, recorded(signedFP), signedFP},
		{"key with another key's fingerprint", signed, recorded(offeredFP), ""},
		{"key with nothing recorded", signed, &gossh.Permissions{}, ""},
		{"key with an empty fingerprint", signed, recorded(""), ""},
		{"no key with an offered key's fingerprint", nil, recorded(offeredFP), ""},
		{"no key and nothing recorded", nil, &gossh.Permissions{}, "guest:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := identify(keyedSession{key: tc.key, perms: tc.perms})
			switch {
			case tc.account == "":
				if !errors.Is(err, errIdentityMismatch) || id != (Identity{}) {
					t.Fatalf("identify = %+v, %v; want a refusal", id, err)
				}
			case tc.account == "guest:":
				if err != nil || !id.Guest || !strings.HasPrefix(id.Account, "guest:") || len(id.Account) <= len("guest:") {
					t.Fatalf("identify = %+v, %v; want a fresh guest", id, err)
				}
			default:
				if err != nil || id.Account != tc.account || id.Guest {
					t.Fatalf("identify = %+v, %v; want account %s", id, err, tc.account)
				}
			}
		})
	}
}
