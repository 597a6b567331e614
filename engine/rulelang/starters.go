package rulelang

// LibraryRule is a named rule written in the rule language.
type LibraryRule struct {
	Title string // a short description in the project's own words
	Text  string // the rule in the rule language
}

// WhatTheRuleStarters returns the ten starter rules of What the Rule?!, in
// the order of the spec, written in the rule language for
// WhatTheRuleAttributes.
func WhatTheRuleStarters() []LibraryRule {
	return []LibraryRule{
		{"Filled and unfilled take turns", "filled != prev.filled"},
		{"Even and odd counts take turns", "even(count) != even(prev.count)"},
		{"Circle, then triangle, then square, and round again", "shape == next(prev.shape)"},
		{"Black cards show 1 to 3, white cards 4 to 6", "if color == black then count <= 3 else count >= 4"},
		{"Two black, then two white, and so on", "if prev.color == prev2.color then color != prev.color else color == prev.color"},
		{"Anything but circles", "shape != circle"},
		{"A different shape from the card before", "shape != prev.shape"},
		{"White cards filled, black cards unfilled", "if color == white then filled else not filled"},
		{"No 1s and no 2s", "count not in {1, 2}"},
		{"Even counts on white, odd counts on black", "if even(count) then color == white else color == black"},
	}
}
