package rulelang

// The language, as this package reads it.
//
//	rule     = cond
//	cond     = "if" cond ["," ] "then" cond [[","] ("else" | "otherwise") cond]
//	         | or
//	or       = and {"or" and}
//	and      = not {"and" not}
//	not      = "not" not | compare
//	compare  = sum [("==" | "!=" | "<" | "<=" | ">" | ">=") sum]
//	         | sum ["not"] "in" "{" literal {"," literal} "}"
//	sum      = term {("+" | "-") term}
//	term     = unary {"%" number}
//	unary    = "-" unary | primary
//	primary  = number | name | "true" | "false" | "n"
//	         | [("card" | "prev" | "prev2" | "prev3") "."] attribute
//	         | ("even" | "odd" | "next") "(" cond ")" | "(" cond ")"
//
// Words are case-insensitive; "=" is read as "==", and ≠ ≤ ≥ are accepted.
// An attribute without a card names the candidate card. A value name
// (circle, yellow, large) takes its meaning from the attribute it is compared
// with, so "ncolor == prev.bg" and "bg in {yellow, red}" both work.
//
// Types: true/false attributes (filled) are conditions; enum attributes
// (shape, colours) compare with ==, != and in, and step with next(), which
// wraps around (next(square) is circle); number attributes (count, number,
// size) also take arithmetic, order, even() and odd(). Arithmetic on a cyclic
// attribute wraps (If Then: 9 + 1 is 0, 1 - 3 is 8); % takes a literal
// modulus and never gives a negative result. Number literals go up to 99.
//
// Missing cards. At the start of a line prev, prev2 or prev3 may not exist.
// A value read from a missing card is unknown, and so is every comparison
// that uses it. "and", "or" and "not" follow Kleene's strong three-valued
// logic. "if c then a else b" is a when c is true and b when c is false; when
// c is unknown it is the common value of a and b if they agree, and unknown
// otherwise. "if c then a" without else is "if c then a else true". A card is
// rejected only when the rule is definitely false, so "filled != prev.filled"
// accepts any first card.
//
// Exact equivalence (Equivalent) walks every joint state the two rules can
// reach through lines valid under both: the state is the last k cards
// (k the larger lookback), each reduced to the attributes either rule reads
// from that slot or the ones it moves to, and the position n. How n enters
// is worked out from the syntax (see shape.go): beyond a threshold T (the
// largest bound a comparison of n needs, at least k) positions that agree
// modulo P (the least common multiple of every modulus n passes through,
// including even/odd and cyclic arithmetic) behave alike, so positions
// 1..T are kept exactly and later ones modulo P. The two accept sets are
// compared in every state; the first difference found (breadth first, so
// on a shortest line) is the counterexample.
