package rulelang

import (
	"errors"
	"testing"
)

func TestBuilderMakesStarterRules(t *testing.T) {
	as := WhatTheRuleAttributes()
	starters := WhatTheRuleStarters()
	cases := []struct {
		starter int // 1-based
		b       Builder
	}{
		{1, Builder{Then: Group{Clauses: []Clause{{Attr: "filled", Op: OpDifferentFrom, Other: SubjectPrev}}}}},
		{3, Builder{Then: Group{Clauses: []Clause{{Attr: "shape", Op: OpNextAfter, Other: SubjectPrev}}}}},
		{4, Builder{
			If:   Group{Clauses: []Clause{{Attr: "color", Op: OpIs, Values: []string{"black"}}}},
			Then: Group{Clauses: []Clause{{Attr: "count", Op: OpAtMost, Values: []string{"3"}}}},
			Else: Group{Clauses: []Clause{{Attr: "count", Op: OpAtLeast, Values: []string{"4"}}}},
		}},
		{6, Builder{Then: Group{Clauses: []Clause{{Attr: "shape", Op: OpIsNot, Values: []string{"circle"}}}}}},
		{7, Builder{Then: Group{Clauses: []Clause{{Attr: "shape", Op: OpDifferentFrom, Other: SubjectPrev}}}}},
		{8, Builder{
			If:   Group{Clauses: []Clause{{Attr: "color", Op: OpIs, Values: []string{"white"}}}},
			Then: Group{Clauses: []Clause{{Attr: "filled", Op: OpYes}}},
			Else: Group{Clauses: []Clause{{Attr: "filled", Op: OpNo}}},
		}},
		{9, Builder{Then: Group{Join: JoinAny, Clauses: []Clause{
			{Attr: "count", Op: OpGreater, Values: []string{"2"}},
			{Attr: "count", Op: OpIsNot, Values: []string{"1", "2"}},
		}}}},
		{10, Builder{
			If:   Group{Clauses: []Clause{{Attr: "count", Op: OpEven}}},
			Then: Group{Clauses: []Clause{{Attr: "color", Op: OpIs, Values: []string{"white"}}}},
			Else: Group{Clauses: []Clause{{Attr: "color", Op: OpIsNot, Values: []string{"white"}}}},
		}},
	}
	for _, c := range cases {
		r, err := c.b.Rule(as)
		if err != nil {
			t.Fatalf("starter %d: %v", c.starter, err)
		}
		want := MustParse(as, starters[c.starter-1].Text)
		if eq, cx, err := Equivalent(r, want); err != nil || !eq {
			t.Errorf("starter %d: built %q is not equivalent to %q (%+v, %v)", c.starter, r, want, cx, err)
		}
	}
}

func TestBuilderIfThenChallenge(t *testing.T) {
	as := IfThenAttributes()
	b := Builder{
		If:   Group{Clauses: []Clause{{Subject: SubjectPrev, Attr: "bg", Op: OpIs, Values: []string{"yellow", "blue", "red"}}}},
		Then: Group{Clauses: []Clause{{Attr: "bg", Op: OpDifferentFrom, Other: SubjectPrev}}},
	}
	s, err := b.Text(as)
	if err != nil {
		t.Fatal(err)
	}
	if s != "if prev.bg in {yellow, blue, red} then bg != prev.bg" {
		t.Errorf("text %q", s)
	}
	b = Builder{Then: Group{Join: JoinAny, Clauses: []Clause{
		{Attr: "number", Op: OpPlus, Other: SubjectPrev, Offset: -3},
		{Attr: "size", Op: OpIs, Values: []string{"large"}},
	}}}
	r, err := b.Rule(as)
	if err != nil {
		t.Fatal(err)
	}
	if r.String() != "number == prev.number - 3 or size == large" {
		t.Errorf("rule %q", r)
	}
	for _, a := range []string{"number", "ncolor", "size", "bg"} {
		i, _ := as.Index(a)
		if len(Operators(as.At(i))) == 0 || len(Values(as.At(i))) == 0 {
			t.Errorf("%s: no operators or values for the menus", a)
		}
	}
}

func TestBuilderErrorsPointAtThePart(t *testing.T) {
	as := WhatTheRuleAttributes()
	cases := []struct {
		b    Builder
		part string
	}{
		{Builder{}, "then"},
		{Builder{Then: Group{Clauses: []Clause{{Attr: "shape", Op: OpIs}}}}, "then, clause 1"},
		{Builder{Then: Group{Clauses: []Clause{{Attr: "shape", Op: OpIs, Values: []string{"circle"}}, {Attr: "shape", Op: OpLess, Values: []string{"circle"}}}}}, "then, clause 2"},
		{Builder{Then: Group{Clauses: []Clause{{Attr: "shape", Op: OpIs, Values: []string{"hexagon"}}}}}, "then, clause 1"},
		{Builder{Then: Group{Clauses: []Clause{{Attr: "shape", Op: OpSameAs}}}}, "then, clause 1"},
		{Builder{Then: Group{Clauses: []Clause{{Attr: "glow", Op: OpIs}}}}, "then, clause 1"},
		{Builder{If: Group{Clauses: []Clause{{Attr: "count", Op: OpEven, Subject: 7}}}, Then: Group{Clauses: []Clause{{Attr: "filled", Op: OpYes}}}}, "if, clause 1"},
		{Builder{Then: Group{Clauses: []Clause{{Attr: "filled", Op: OpYes}}}, Else: Group{Clauses: []Clause{{Attr: "filled", Op: OpNo}}}}, "otherwise"},
	}
	for i, c := range cases {
		_, err := c.b.Rule(as)
		var be *BuildError
		if !errors.As(err, &be) || be.Part != c.part {
			t.Errorf("case %d: got %v, want an error in %q", i, err, c.part)
		}
	}
}

func TestBuilderFromRuleRoundTrips(t *testing.T) {
	as := WhatTheRuleAttributes()
	loaded := 0
	for _, st := range WhatTheRuleStarters() {
		r := MustParse(as, st.Text)
		b, ok := BuilderFromRule(r)
		if !ok {
			continue
		}
		loaded++
		again, err := b.Rule(as)
		if err != nil {
			t.Fatalf("%q: builder does not rebuild it: %v", st.Text, err)
		}
		if eq, _, err := Equivalent(r, again); err != nil || !eq {
			t.Errorf("%q: rebuilt as %q, not equivalent", st.Text, again)
		}
	}
	if loaded < 8 {
		t.Errorf("only %d of the 10 starters load into the builder", loaded)
	}
	it := IfThenAttributes()
	for _, src := range []string{
		"if prev.bg in {yellow, blue, red} then bg != prev.bg",
		"if prev.size == large then number == prev.number + 3 and bg != prev.bg else ncolor == prev.bg or even(number)",
		"number == prev.number - 2 or size not in {small, large}",
	} {
		r := MustParse(it, src)
		b, ok := BuilderFromRule(r)
		if !ok {
			t.Errorf("%q does not load into the builder", src)
			continue
		}
		again, err := b.Rule(it)
		if err != nil || again.String() != r.String() {
			t.Errorf("%q: rebuilt as %v (%v)", src, again, err)
		}
	}
	if _, ok := BuilderFromRule(MustParse(as, "n % 2 == 0 or filled")); ok {
		t.Error("a rule reading n should not load into the builder")
	}
}
