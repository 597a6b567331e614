package rating

import (
	"fmt"
	"math"
	"testing"
	"time"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f (±%g)", what, got, want, tol)
	}
}

// TestGlicko2PaperExample is the worked example in Glickman's "Example of
// the Glicko-2 system": a 1500/200 player beats a 1400/30 player and loses
// to 1550/100 and 1700/300 players, τ = 0.5.
func TestGlicko2PaperExample(t *testing.T) {
	p := Rating{R: 1500, RD: 200, Vol: 0.06}
	got := Glicko2(p, []Outcome{
		{Opponent: Rating{R: 1400, RD: 30, Vol: 0.06}, Score: 1},
		{Opponent: Rating{R: 1550, RD: 100, Vol: 0.06}, Score: 0},
		{Opponent: Rating{R: 1700, RD: 300, Vol: 0.06}, Score: 0},
	}, 0.5)
	near(t, "rating", got.R, 1464.06, 0.01)
	near(t, "RD", got.RD, 151.52, 0.01)
	near(t, "volatility", got.Vol, 0.05999, 0.00001)
}

// TestGlicko2IdlePeriod: a player who did not compete keeps the rating and
// grows the deviation to √(φ²+σ²) (the paper's rule for such players).
func TestGlicko2IdlePeriod(t *testing.T) {
	p := Rating{R: 1700, RD: 50, Vol: 0.06}
	got := Glicko2(p, nil, Tau)
	want := math.Sqrt(math.Pow(50/glickoScale, 2)+0.06*0.06) * glickoScale
	if got.R != 1700 || got.Vol != 0.06 {
		t.Errorf("idle period changed rating or volatility: %+v", got)
	}
	near(t, "RD", got.RD, want, 1e-9)
	if got := Glicko2(New(), nil, Tau); got.RD != InitialRD {
		t.Errorf("idle newcomer RD = %v, want capped at %v", got.RD, InitialRD)
	}
}

// The openskill.js fixtures for the Bradley-Terry full-pair model (its
// defaults μ=25, σ=25/3, β=25/6, κ=0.0001, γ=σ/c): n equal players finishing
// in seat order.
func TestWengLinPublishedFFA(t *testing.T) {
	cases := []struct {
		n     int
		mus   []float64
		sigma float64
	}{
		{2, []float64{27.63523138347365, 22.36476861652635}, 8.065506316323548},
		{3, []float64{30.2704627669473, 25.0, 19.7295372330527}, 7.788474807872566},
		{4, []float64{32.90569415042095, 27.63523138347365, 22.36476861652635, 17.09430584957905}, 7.5012190693964005},
		{5, []float64{35.5409255338946, 30.2704627669473, 25.0, 19.729537233052703, 14.4590744661054}, 7.202515895247076},
	}
	for _, c := range cases {
		ratings := make([]Rating, c.n)
		ranks := make([]int, c.n)
		for i := range ratings {
			ratings[i] = Rating{R: 25, RD: 25.0 / 3, Vol: InitialVol}
			ranks[i] = i
		}
		got, err := WengLin(ratings, ranks, 25.0/6)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range got {
			near(t, "mu", r.R, c.mus[i], 1e-9)
			near(t, "sigma", r.RD, c.sigma, 1e-9)
			if r.Vol != InitialVol {
				t.Errorf("%d players: volatility changed to %v", c.n, r.Vol)
			}
		}
	}
}

// TestWengLinTies: players who tie (a shared win, or a game nobody won)
// are scored ½ against each other, so equal players who all tie keep their
// ratings, and tied players move together.
func TestWengLinTies(t *testing.T) {
	eq := []Rating{New(), New(), New()}
	got, err := WengLin(eq, []int{0, 0, 0}, Beta)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		near(t, "rating after an all-way tie", r.R, Initial, 1e-9)
		if r.RD >= InitialRD {
			t.Errorf("seat %d: a game played must make the rating surer, RD %v", i, r.RD)
		}
	}
	got, err = WengLin([]Rating{New(), New(), New(), New()}, []int{0, 0, 1, 1}, Beta)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != got[1] || got[2] != got[3] || got[0].R <= Initial || got[2].R >= Initial {
		t.Errorf("shared win of seats 0 and 1: %+v", got)
	}
}

// TestBetaMatchesGlickoOdds: for two players whose ratings are certain, the
// Weng-Lin win chance with Beta equals Glicko's 1/(1+10^(-d/400)).
func TestBetaMatchesGlickoOdds(t *testing.T) {
	for _, d := range []float64{0, 50, 200, 400, 800} {
		c := math.Sqrt(2 * Beta * Beta)
		wl := 1 / (1 + math.Exp(-d/c))
		gl := 1 / (1 + math.Pow(10, -d/400))
		near(t, "win chance", wl, gl, 1e-6)
	}
}

// TestUpdateTwoPlayers: a two-player game is one Glicko-2 period for each:
// the winner goes up, the loser down, a draw between equals moves nobody.
func TestUpdateTwoPlayers(t *testing.T) {
	a, b := Rating{R: 1600, RD: 80, Vol: 0.06}, Rating{R: 1500, RD: 120, Vol: 0.06}
	got, err := Update([]Rating{a, b}, []int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].R >= a.R || got[1].R <= b.R {
		t.Fatalf("upset must move ratings in opposite directions: %+v", got)
	}
	want0 := Glicko2(a, []Outcome{{Opponent: b, Score: 0}}, Tau)
	if got[0] != want0 {
		t.Errorf("seat 0 = %+v, want the Glicko-2 period %+v", got[0], want0)
	}
	got, err = Update([]Rating{New(), New()}, []int{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "draw between equals", got[0].R, Initial, 1e-9)
	near(t, "draw between equals", got[1].R, Initial, 1e-9)
}

// TestUpdateMultiplayer: with 3+ seats the winner gains, the last loses, a
// stronger favourite who wins gains less than an underdog who wins.
func TestUpdateMultiplayer(t *testing.T) {
	strong := Rating{R: 1900, RD: 60, Vol: 0.06}
	weak := Rating{R: 1300, RD: 60, Vol: 0.06}
	mid := Rating{R: 1600, RD: 60, Vol: 0.06}
	fav, err := Update([]Rating{strong, mid, weak}, []int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	upset, err := Update([]Rating{strong, mid, weak}, []int{2, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if fav[0].R <= strong.R || fav[2].R >= weak.R {
		t.Errorf("expected result: %+v", fav)
	}
	if gainFav, gainUpset := fav[0].R-strong.R, upset[2].R-weak.R; gainFav >= gainUpset {
		t.Errorf("favourite gained %.1f, underdog %.1f: the surprise must count more", gainFav, gainUpset)
	}
}

// TestUpdateBadInput: mismatched or too few ranks are refused, and a damaged
// (zero or NaN) rating is treated as a newcomer's instead of spreading NaN.
func TestUpdateBadInput(t *testing.T) {
	if _, err := Update([]Rating{New()}, []int{0}); err == nil {
		t.Error("one player: want an error")
	}
	if _, err := Update([]Rating{New(), New()}, []int{0}); err == nil {
		t.Error("missing rank: want an error")
	}
	for _, n := range []int{2, 3} {
		rs := make([]Rating, n)
		ranks := make([]int, n)
		rs[0] = Rating{R: math.NaN(), RD: 10, Vol: 0.06}
		for i := range ranks {
			ranks[i] = i
		}
		got, err := Update(rs, ranks)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range got {
			if !r.valid() {
				t.Errorf("%d players: seat %d rating %+v is not a number", n, i, r)
			}
		}
	}
}

func TestProvisional(t *testing.T) {
	if !New().Provisional() {
		t.Error("a newcomer must be provisional")
	}
	if (Rating{R: 1500, RD: ProvisionalRD - 1, Vol: 0.06}).Provisional() {
		t.Error("a well-known rating must not be provisional")
	}
}

// TestBecomesEstablished: a player who keeps playing settles below the
// provisional threshold within a few dozen games (not never, not at once).
func TestBecomesEstablished(t *testing.T) {
	p, opp := New(), Rating{R: 1500, RD: 60, Vol: 0.06}
	games := 0
	for p.Provisional() && games < 100 {
		res := []int{games % 2, 1 - games%2}
		got, err := Update([]Rating{p, opp}, res)
		if err != nil {
			t.Fatal(err)
		}
		p = got[0]
		games++
	}
	if games < 3 || games >= 100 {
		t.Errorf("provisional for %d games", games)
	}
}

func BenchmarkUpdate4(b *testing.B) {
	rs := []Rating{New(), {R: 1600, RD: 80, Vol: 0.06}, {R: 1400, RD: 200, Vol: 0.06}, {R: 1550, RD: 50, Vol: 0.06}}
	ranks := []int{1, 0, 2, 2}
	for b.Loop() {
		if _, err := Update(rs, ranks); err != nil {
			b.Fatal(err)
		}
	}
}

func TestShow(t *testing.T) {
	cases := map[Rating]string{
		{R: 1411.6, RD: 48, Vol: 0.06}:  "1,412",
		{R: 1530, RD: 160, Vol: 0.06}:   "1,530?",
		{R: 987.2, RD: 60, Vol: 0.06}:   "987",
		{R: 12345.4, RD: 60, Vol: 0.06}: "12,345",
		{R: -1234.4, RD: 60, Vol: 0.06}: "-1,234",
	}
	for r, want := range cases {
		if got := r.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", r, got, want)
		}
	}
	if got := (Rating{R: 1500, RD: 47.6}).Deviation(); got != "±48" {
		t.Errorf("Deviation = %q", got)
	}
}

func TestSpark(t *testing.T) {
	if got := Spark([]float64{1400, 1500, 1450, 1600}, 10); got != "▁▅▃█" {
		t.Errorf("Spark = %q", got)
	}
	if got := Spark([]float64{1, 2, 3, 1500, 1500}, 2); got != "▅▅" {
		t.Errorf("Spark of the last two, flat = %q", got)
	}
	if got := Spark(nil, 10); got != "" {
		t.Errorf("Spark(nil) = %q", got)
	}
}

// TestIdleGrowsDeviationPerPeriod: n rating periods away grow the
// deviation to √(RD² + n·σ²) — the same as n Glicko-2 periods without a
// game — keep the rating and volatility, and stop at a newcomer's RD.
func TestIdleGrowsDeviationPerPeriod(t *testing.T) {
	p := Rating{R: 1812, RD: 50, Vol: 0.06}
	for _, n := range []int{1, 2, 7, 30, 88, 365} {
		got := p.Idle(n)
		want := math.Sqrt(50*50 + float64(n)*math.Pow(0.06*glickoScale, 2))
		near(t, fmt.Sprintf("RD after %d periods", n), got.RD, min(want, InitialRD), 1e-9)
		step := p
		for range n {
			step = Glicko2(step, nil, Tau)
		}
		near(t, fmt.Sprintf("RD after %d idle Glicko-2 periods", n), got.RD, step.RD, 1e-9)
		if got.R != p.R || got.Vol != p.Vol {
			t.Errorf("%d periods away changed the rating or volatility: %+v", n, got)
		}
	}
	// Worked by hand: 30 days away from ±50 at σ 0.06 is ±75.9.
	near(t, "RD after 30 days", p.Idle(30).RD, 75.8895, 0.001)
	if p.Idle(87).Provisional() || !p.Idle(89).Provisional() {
		t.Errorf("a settled ±50 should turn provisional after 88–89 days away: 87 → %.1f, 89 → %.1f", p.Idle(87).RD, p.Idle(89).RD)
	}
	if got := p.Idle(100000); got.RD != InitialRD {
		t.Errorf("long away: RD %v, want capped at %v", got.RD, InitialRD)
	}
	if got := p.Idle(0); got != p {
		t.Errorf("no period away changed the rating: %+v", got)
	}
	if got := p.Idle(-3); got != p {
		t.Errorf("a negative count changed the rating: %+v", got)
	}
	if got := (Rating{}).Idle(5); got != (Rating{}) {
		t.Errorf("an unusable rating was changed: %+v", got)
	}
}

// TestIdlePeriodsCountWholeDays: only whole periods count; no time, time
// backwards or an unknown last game count none.
func TestIdlePeriodsCountWholeDays(t *testing.T) {
	last := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	cases := []struct {
		now  time.Time
		want int
	}{
		{last, 0},
		{last.Add(-48 * time.Hour), 0},
		{last.Add(23*time.Hour + 59*time.Minute), 0},
		{last.Add(24 * time.Hour), 1},
		{last.Add(49 * time.Hour), 2},
		{last.AddDate(0, 0, 30), 30},
	}
	for _, c := range cases {
		if got := IdlePeriods(last, c.now); got != c.want {
			t.Errorf("IdlePeriods(%v, %v) = %d, want %d", last, c.now, got, c.want)
		}
	}
	if got := IdlePeriods(time.Time{}, last); got != 0 {
		t.Errorf("unknown last game: %d periods, want 0", got)
	}
	p := Rating{R: 1600, RD: 80, Vol: 0.05}
	if got, want := p.At(last, last.AddDate(0, 0, 10)), p.Idle(10); got != want {
		t.Errorf("At = %+v, want %+v", got, want)
	}
}
