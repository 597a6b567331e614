package rulelang

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxRuleLength bounds the source of a rule, in bytes. Rules come from users;
// anything longer is refused before it is parsed.
const MaxRuleLength = 1000

// maxDepth bounds nesting, so hostile input cannot exhaust the stack.
const maxDepth = 40

// maxLiteral bounds number literals, which keeps arithmetic and the n
// analysis of equivalence small.
const maxLiteral = 99

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tOp // == != < <= > >= + - % ( ) { } , .
)

type token struct {
	kind tokKind
	text string
	num  int
	col  int // 1-based, in runes
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "the end of the rule"
	case tNumber:
		return fmt.Sprintf("the number %d", t.num)
	}
	return fmt.Sprintf("%q", t.text)
}

// SyntaxError is a rule that does not parse or does not make sense for the
// game's attributes. Col is the 1-based column (in characters) where the
// problem was found.
type SyntaxError struct {
	Col int
	Msg string
}

// Error gives the column and the problem, e.g. "column 9: expected a value …".
func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

func errAt(col int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Col: col, Msg: fmt.Sprintf(format, args...)}
}

func lex(src string) ([]token, error) {
	if len(src) > MaxRuleLength {
		return nil, errAt(1, "a rule may be at most %d characters long", MaxRuleLength)
	}
	var toks []token
	col := 1
	for i := 0; i < len(src); {
		r, w := utf8.DecodeRuneInString(src[i:])
		start := col
		switch {
		case r == utf8.RuneError && w <= 1:
			return nil, errAt(start, "the rule is not valid text")
		case unicode.IsSpace(r):
			i += w
			col++
			continue
		case r < utf8.RuneSelf && (isLetter(byte(r)) || r == '_'):
			j := i
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j]) || src[j] == '_') {
				j++
			}
			toks = append(toks, token{kind: tIdent, text: strings.ToLower(src[i:j]), col: start})
			col += j - i
			i = j
			continue
		case r < utf8.RuneSelf && isDigit(byte(r)):
			j := i
			v := 0
			for j < len(src) && isDigit(src[j]) {
				if v <= maxLiteral {
					v = v*10 + int(src[j]-'0')
				}
				j++
			}
			if v > maxLiteral {
				return nil, errAt(start, "numbers in rules go up to %d", maxLiteral)
			}
			toks = append(toks, token{kind: tNumber, text: src[i:j], num: v, col: start})
			col += j - i
			i = j
			continue
		}
		two := ""
		if i+1 < len(src) {
			two = src[i : i+2]
		}
		switch two {
		case "==", "!=", "<=", ">=":
			toks = append(toks, token{kind: tOp, text: two, col: start})
			i += 2
			col += 2
			continue
		}
		switch r {
		case '=': // a lone "=" is read as "==": people write it that way
			toks = append(toks, token{kind: tOp, text: "==", col: start})
		case '<', '>', '+', '-', '%', '(', ')', '{', '}', ',', '.':
			toks = append(toks, token{kind: tOp, text: string(r), col: start})
		case '≠':
			toks = append(toks, token{kind: tOp, text: "!=", col: start})
		case '≤':
			toks = append(toks, token{kind: tOp, text: "<=", col: start})
		case '≥':
			toks = append(toks, token{kind: tOp, text: ">=", col: start})
		default:
			if unicode.IsPrint(r) {
				return nil, errAt(start, "unexpected character %q", r)
			}
			return nil, errAt(start, "unexpected character U+%04X", r)
		}
		i += w
		col++
	}
	toks = append(toks, token{kind: tEOF, col: col})
	return toks, nil
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
func isDigit(b byte) bool  { return b >= '0' && b <= '9' }

func isKeyword(w string) bool {
	switch w {
	case "if", "then", "else", "otherwise", "and", "or", "not", "in", "true", "false", "n", "even", "odd", "next":
		return true
	}
	return false
}

// isSlot reports whether w names a card of the line.
func isSlot(w string) bool {
	_, ok := slotOf(w)
	return ok
}

func slotOf(w string) (int, bool) {
	switch w {
	case "card":
		return 0, true
	case "prev", "prev1":
		return 1, true
	case "prev2":
		return 2, true
	case "prev3":
		return 3, true
	}
	return 0, false
}
