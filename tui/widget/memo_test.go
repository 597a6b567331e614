package widget

import (
	"fmt"
	"testing"
)

func TestMemoForgetsPastItsBound(t *testing.T) {
	m := Memo[int, string]{Max: 10}
	for i := range 25 {
		if got := m.Put(i, fmt.Sprint(i)); got != fmt.Sprint(i) {
			t.Fatalf("Put returned %q", got)
		}
		if m.Len() > 10 {
			t.Fatalf("holds %d entries, more than 10", m.Len())
		}
		if v, ok := m.Get(i); !ok || v != fmt.Sprint(i) {
			t.Fatalf("Get(%d) = %q, %v right after Put", i, v, ok)
		}
	}
	var zero Memo[string, int]
	for i := range DefaultMemo + 5 {
		zero.Put(fmt.Sprint(i), i)
	}
	if zero.Len() > DefaultMemo {
		t.Errorf("the zero Memo holds %d entries, more than %d", zero.Len(), DefaultMemo)
	}
}

func TestWidthsAgreeWithWidth(t *testing.T) {
	var w Widths
	for _, s := range []string{"", "plain", "– en dash", "○△□ ●▲■ ★⏱", "\x1b[1mbold\x1b[m 世界", "é"} {
		for range 2 { // measured, then remembered
			if got, want := w.Of(s), Width(s); got != want {
				t.Errorf("Widths.Of(%q) = %d, want %d", s, got, want)
			}
		}
	}
}
