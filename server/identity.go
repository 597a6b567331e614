package server

import (
	"crypto/rand"
	"errors"
	"strings"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// fingerprintExt is the Permissions extension where the public-key callback
// records the SHA256 fingerprint of the key it was asked about. Only the
// permissions of the key that completed authentication survive the
// handshake, so a key that was merely offered never reaches a session.
const fingerprintExt = "codebreakers-key-sha256"

// guestAlphabet has no look-alike characters.
const guestAlphabet = "23456789abcdefghjkmnpqrstuvwxyz"

var errIdentityMismatch = errors.New("Your key could not be verified. Please reconnect.")

// publicKeyHandler accepts any key: every key is an account. It records the
// key's fingerprint so the session can check it against the key that
// actually authenticated.
func publicKeyHandler(ctx ssh.Context, key ssh.PublicKey) bool {
	perms := ctx.Permissions()
	if perms.Extensions == nil {
		perms.Extensions = make(map[string]string)
	}
	perms.Extensions[fingerprintExt] = gossh.FingerprintSHA256(key)
	return true
}

// keyboardInteractiveHandler lets clients without a key in as guests. It
// asks no questions, only says what a guest gives up.
func keyboardInteractiveHandler(_ ssh.Context, challenge gossh.KeyboardInteractiveChallenge) bool {
	_, err := challenge("", "No SSH key offered: you will play as a guest. Connect with a key to keep your handle and history.", nil, nil)
	return err == nil
}

// identify works out who a session belongs to. A session with a key must
// carry the fingerprint recorded for that very key; one without a key and
// without a recorded fingerprint is a fresh guest. Anything else is refused.
func identify(sess ssh.Session) (Identity, error) {
	recorded := sess.Permissions().Extensions[fingerprintExt]
	key := sess.PublicKey()
	switch {
	case key == nil && recorded == "":
		return Identity{Account: "guest:" + guestID(), Guest: true}, nil
	case key != nil && recorded != "" && recorded == gossh.FingerprintSHA256(key):
		return Identity{Account: recorded}, nil
	default:
		return Identity{}, errIdentityMismatch
	}
}

// guestID is a random id for a guest account, unique enough for one run.
func guestID() string {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	var sb strings.Builder
	for _, c := range b {
		sb.WriteByte(guestAlphabet[int(c)%len(guestAlphabet)])
	}
	return sb.String()
}
