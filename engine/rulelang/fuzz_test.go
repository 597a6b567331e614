package rulelang

import "testing"

// FuzzParse feeds arbitrary text to the parser: it must never panic or hang,
// and whatever it accepts must print to a form that parses to the same text
// and can be judged.
func FuzzParse(f *testing.F) {
	for _, st := range WhatTheRuleStarters() {
		f.Add(st.Text)
	}
	for _, s := range []string{
		"if prev.bg in {yellow, blue, red} then bg != prev.bg",
		"number == prev.number + 1 and size >= medium",
		"n % 4 < 2 or not (filled == prev.filled)",
		"((((", "shape in {", "count == -99 - -99", "if if a then b then c", "≠≤≥", "\x00\xff",
	} {
		f.Add(s)
	}
	sets := attrSets()
	f.Fuzz(func(t *testing.T, src string) {
		for _, as := range sets {
			r, err := Parse(as, src)
			if err != nil {
				if errorColumn(err) < 1 {
					t.Fatalf("%q: error without a column: %v", src, err)
				}
				continue
			}
			again, err := Parse(as, r.String())
			if err != nil || again.String() != r.String() {
				t.Fatalf("%q printed as %q does not round-trip: %v", src, r, err)
			}
			univ := as.Universe()
			_ = r.English()
			line := univ[:3]
			for k := 0; k <= len(line); k++ {
				if r.Judge(line[:k], univ[len(univ)-1]) != again.Judge(line[:k], univ[len(univ)-1]) {
					t.Fatalf("%q and its print judge differently", src)
				}
			}
		}
	})
}
