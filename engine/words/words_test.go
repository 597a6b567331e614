package words

import (
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 tables"}, {1, "1 table"}, {2, "2 tables"}, {11, "11 tables"}, {-1, "-1 table"}} {
		if got := Count(c.n, "table", "tables"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := Plural(1, "guess", "guesses"); got != "guess" {
		t.Errorf("Plural(1) = %q", got)
	}
	if got := Plural(2, "was", "were"); got != "were" {
		t.Errorf("Plural(2) = %q", got)
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{time.Minute: "1 minute", 5 * time.Minute: "5 minutes", 90 * time.Second: "90 seconds", time.Second: "1 second", 0: "a moment"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}
