package engine

import (
	"strings"
	"testing"
)

func TestEventVisibility(t *testing.T) {
	public := Event{Kind: "ask", Text: "public"}
	private := Event{Kind: "guess", Text: "private", Seats: []Seat{1}}
	cases := []struct {
		v         Viewer
		pub, priv bool
	}{
		{SeatViewer(0), true, false},
		{SeatViewer(1), true, true},
		{Spectator(), true, false},
		{Omniscient(), true, true},
	}
	for _, c := range cases {
		if got := public.VisibleTo(c.v); got != c.pub {
			t.Errorf("public event visible to %+v = %v, want %v", c.v, got, c.pub)
		}
		if got := private.VisibleTo(c.v); got != c.priv {
			t.Errorf("private event visible to %+v = %v, want %v", c.v, got, c.priv)
		}
	}
	if got := FilterEvents([]Event{public, private}, Spectator()); len(got) != 1 || got[0].Text != "public" {
		t.Errorf("FilterEvents for a spectator = %+v, want only the public event", got)
	}
}

func TestResolveOptions(t *testing.T) {
	info := Info{Name: "Test", Options: []OptionSpec{
		{Key: "aid", Label: "Aid", Choices: []string{"on", "off"}, Default: "on"},
	}}
	got, err := info.Resolve(nil)
	if err != nil || got["aid"] != "on" {
		t.Fatalf("Resolve(nil) = %v, %v; want defaults", got, err)
	}
	if _, err := info.Resolve(Options{"aid": "maybe"}); !IsIllegal(err) {
		t.Errorf("a value outside the choices must be refused, got %v", err)
	}
	if _, err := info.Resolve(Options{"speed": "fast"}); !IsIllegal(err) {
		t.Errorf("an unknown option must be refused, got %v", err)
	}
}

func TestDecodeActionIsStrict(t *testing.T) {
	type act struct {
		Card int `json:"card"`
	}
	var a act
	if err := DecodeAction([]byte(`{"card":3}`), &a); err != nil || a.Card != 3 {
		t.Fatalf("valid action: %v %+v", err, a)
	}
	bad := []string{`{"card":3,"x":1}`, `{"card":3}{}`, `nope`, `{"card":"3"}`, "{\"card\":" + strings.Repeat("1", MaxActionBytes) + "}"}
	for _, b := range bad {
		if err := DecodeAction([]byte(b), &a); !IsIllegal(err) {
			t.Errorf("DecodeAction(%.40q) = %v, want an illegal-action error", b, err)
		}
	}
}

func TestViewAs(t *testing.T) {
	type view struct{ N int }
	if v, err := ViewAs[view](view{N: 1}); err != nil || v.N != 1 {
		t.Errorf("ViewAs(value) = %+v, %v", v, err)
	}
	if v, err := ViewAs[view](&view{N: 2}); err != nil || v.N != 2 {
		t.Errorf("ViewAs(pointer) = %+v, %v", v, err)
	}
	if _, err := ViewAs[view]((*view)(nil)); err == nil {
		t.Error("ViewAs(nil pointer) must fail")
	}
	if _, err := ViewAs[view]("nope"); err == nil || !strings.Contains(err.Error(), "string") {
		t.Errorf("ViewAs(wrong type) = %v, want an error naming the type", err)
	}
}
