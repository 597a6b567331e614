package server

import (
	"crypto/rand"
	"errors"
	"strings"
	"sync"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/codebreakers/codebreakers/engine/textsafe"
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
// actually authenticated, and notes that a key was offered at all.
func publicKeyHandler(ctx ssh.Context, key ssh.PublicKey) bool {
	connStateFrom(ctx).keyOffered.Store(true)
	perms := ctx.Permissions()
	if perms.Extensions == nil {
		perms.Extensions = make(map[string]string)
	}
	perms.Extensions[fingerprintExt] = gossh.FingerprintSHA256(key)
	return true
}

// Banners of keyboard-interactive sign-in: what happened to the key, and
// what a guest gives up.
const (
	bannerNoKey = "No SSH key offered: you will play as a guest. Connect with a key to keep your handle and history."
	// A key offered but not signed with is usually a passphrase-protected
	// key the agent does not hold, or a public key file without its
	// private half, or a hardware key left unplugged.
	bannerKeyNotUsed = "Your SSH key was offered but the client did not sign in with it (is the key locked, missing its private half, or unplugged?), so you will play as a guest. Fix the key to keep your handle and history."
)

// keyboardInteractiveHandler lets clients without a usable key in as
// guests. It asks no questions, only says what happened and what a guest
// gives up.
func keyboardInteractiveHandler(ctx ssh.Context, challenge gossh.KeyboardInteractiveChallenge) bool {
	banner := bannerNoKey
	if connStateFrom(ctx).keyOffered.Load() {
		banner = bannerKeyNotUsed
	}
	_, err := challenge("", banner, nil, nil)
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

// guestNames hands out guest handles unique among the sessions connected
// now, so that two guests at a table are never both "guest-7k3".
type guestNames struct {
	mu    sync.Mutex
	taken map[string]bool
	// draw returns n random characters; tests replace it.
	draw func(n int) string
}

func newGuestNames() *guestNames {
	return &guestNames{taken: make(map[string]bool), draw: randomGuestChars}
}

// take returns a handle like guest-7k3 that no connected session holds.
// Three characters give 29,791 names; a few tries past a collision, the
// names grow a character longer, so a crowded server still finds one.
func (g *guestNames) take() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	const longest = textsafe.MaxHandle - len("guest-") // 31^10 names: never all taken
	for n := 3; ; n = min(n+1, longest) {
		for range 8 {
			if h := "guest-" + g.draw(n); !g.taken[h] {
				g.taken[h] = true
				return h
			}
		}
	}
}

// release frees a handle when its session ends.
func (g *guestNames) release(h string) {
	g.mu.Lock()
	delete(g.taken, h)
	g.mu.Unlock()
}

func randomGuestChars(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = guestAlphabet[int(b[i])%len(guestAlphabet)]
	}
	return string(b)
}
