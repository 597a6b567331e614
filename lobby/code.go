package lobby

import (
	"crypto/rand"
	"fmt"
	"strings"
)

// Join codes are six characters from an alphabet without look-alikes (no
// 0/O, 1/I/L): 31^6 = 887,503,681 codes, about 29.7 bits.
//
// The odds of guessing one, with the default limits: wrong codes are
// refused after 10 in a minute and 60 in an hour, counted per account, per
// SSH connection and per address (an IPv6 /64 is one address), so a new
// guest session or a new connection starts no fresh count; the hourly cap
// is the one that binds: 60 × 24 = 1,440 guesses a day from one address.
// With T tables open, one guess finds one with probability T / 31^6:
//
//	T = 1,000: 887,503,681 / 1,000 = 887,504 guesses per hit,
//	           / 1,440 a day = 616 days, about 1.7 years per address;
//	T =   100: about 17 years per address.
//
// (With the per-minute cap alone it would be 14,400 a day: 62 days at
// T = 1,000.) A guesser with N addresses is N times faster, which is why
// addresses are grouped by network for IPv6, where one customer holds
// many; an operator facing a botnet can ban networks (--ban-file).
const (
	codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
	codeLen      = 6
)

// newCode returns a fresh random join code in canonical form ("KQ7M4X").
func newCode() (string, error) {
	var b [codeLen]byte
	buf := make([]byte, 16)
	for i := 0; i < codeLen; {
		if _, err := rand.Read(buf); err != nil {
			return "", fmt.Errorf("join code: %w", err)
		}
		for _, x := range buf {
			// 248 = 8*31: reject the top bytes so every symbol is equally likely.
			if x >= 248 || i == codeLen {
				continue
			}
			b[i] = codeAlphabet[int(x)%len(codeAlphabet)]
			i++
		}
	}
	return string(b[:]), nil
}

// NormalizeCode turns what a person typed ("kq7-m4x", "KQ7 M4X") into the
// canonical code, and reports whether it could be a code at all.
func NormalizeCode(in string) (string, bool) {
	var b strings.Builder
	for _, r := range in {
		switch {
		case r == '-' || r == ' ':
			continue
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		}
		if !strings.ContainsRune(codeAlphabet, r) || b.Len() >= codeLen {
			return "", false
		}
		b.WriteRune(r)
	}
	if b.Len() != codeLen {
		return "", false
	}
	return b.String(), true
}

// FormatCode shows a canonical code the way people read it: "KQ7-M4X".
// Anything else is returned unchanged.
func FormatCode(code string) string {
	if len(code) != codeLen {
		return code
	}
	return code[:3] + "-" + code[3:]
}
