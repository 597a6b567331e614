package lobby

import (
	"crypto/rand"
	"fmt"
	"strings"
)

// Join codes are six characters from an alphabet without look-alikes (no
// 0/O, 1/I/L): 31^6 ≈ 8.9e8 codes, about 29.7 bits. With at most
// JoinFailuresPerMinute wrong tries per account and a few thousand open
// tables, a guesser needs years per hit.
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
