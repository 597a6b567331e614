// Package rating is the arithmetic of player ratings: Glicko-2 for
// two-player games and the Weng-Lin Bradley-Terry "full pair" update for
// three or more seats, both on the familiar Glicko scale (new players start
// at 1500 ± 350).
//
// It is pure computation: no I/O, no clocks, no state between calls. The
// caller decides which games are rated and turns a result into a finishing
// order (Ranks); Update turns the ratings before a game and that order into
// the ratings after it.
//
// Sources:
//   - Mark E. Glickman, "Example of the Glicko-2 system" (2012): the
//     rating-period update, with the Illinois algorithm for the volatility.
//   - Ruby C. Weng and Chih-Jen Lin, "A Bayesian Approximation Method for
//     Online Ranking", JMLR 12 (2011), Algorithm 1 with the Bradley-Terry
//     full-pair model.
//
// The two methods share one rating per account: a Weng-Lin skill mean and
// deviation are the Glicko rating and RD, and Beta is chosen so that, for
// two players whose ratings are certain, both methods give the same chance
// of winning (Glicko's 10^(d/400) odds). A game with three or more seats
// leaves the volatility alone; a two-player game updates it as Glicko-2 does.
//
// Rating periods. Each rated game is one rating period for its players
// (Update). Time away counts too: every whole Period (one day) in which a
// player finished no rated game of a game is a rating period in which they
// did not compete, and Glicko-2's step 6 grows their deviation in that game
// to √(RD² + σ²) for it, never past InitialRD (Idle, At). Ratings are
// stored as they were after the last game, with its time; the growth is
// worked out whenever a rating is read to be shown, paired or updated, so
// nothing is written while a player is away. With the usual volatility
// (0.06, ≈10.4 rating points a period) a settled ±50 becomes provisional
// again (±110) after about three months away, and as unknown as a
// newcomer's (±350) after about three years.
package rating

import (
	"errors"
	"math"
	"time"
)

// The scale and defaults of a new rating.
const (
	// Initial is a new account's rating.
	Initial = 1500.0
	// InitialRD is a new account's rating deviation (and the most any RD may grow to).
	InitialRD = 350.0
	// InitialVol is a new account's volatility (Glickman's suggested 0.06).
	InitialVol = 0.06
	// Tau constrains how fast volatility changes (Glickman suggests 0.3–1.2;
	// his worked example uses 0.5).
	Tau = 0.5
	// ProvisionalRD is the deviation at or above which a rating is shown
	// provisional ("1530?"): the system does not know the player well yet.
	ProvisionalRD = 110.0

	// glickoScale converts between the Glicko and Glicko-2 scales (400/ln 10).
	glickoScale = 173.7178
	// epsilon is the convergence tolerance of the volatility iteration.
	epsilon = 0.000001
	// kappa keeps a Weng-Lin variance update from shrinking the variance to
	// nothing (the paper's κ).
	kappa = 0.0001
)

// Beta is the Weng-Lin performance spread on the Glicko scale. With it, two
// players whose deviations are zero get the Glicko win chance
// 1/(1+10^(-d/400)): the logistic c = √2·β must equal 400/ln 10.
var Beta = glickoScale / math.Sqrt2

// Rating is one player's rating in one game.
type Rating struct {
	R   float64 `json:"r"`   // the rating (1500 for a new player)
	RD  float64 `json:"rd"`  // the rating deviation: how unsure the rating is
	Vol float64 `json:"vol"` // the volatility: how erratic the player's results are
}

// New is the rating of a player who has never played a rated game.
func New() Rating { return Rating{R: Initial, RD: InitialRD, Vol: InitialVol} }

// Provisional reports whether the rating is still too uncertain to be
// trusted (shown with a "?").
func (r Rating) Provisional() bool { return r.RD >= ProvisionalRD }

// valid reports whether every field is a usable number.
func (r Rating) valid() bool {
	return !math.IsNaN(r.R) && !math.IsInf(r.R, 0) && r.RD > 0 && !math.IsInf(r.RD, 0) &&
		r.Vol > 0 && !math.IsInf(r.Vol, 0)
}

// orNew replaces an unusable rating (zero value, NaN) with a new one, so
// that one damaged record can never poison the ratings of its opponents.
func (r Rating) orNew() Rating {
	if !r.valid() {
		return New()
	}
	return r
}

// Outcome is one game of a Glicko-2 rating period: the opponent's rating
// before the period and the score against them (1 win, 0.5 draw, 0 loss).
type Outcome struct {
	Opponent Rating
	Score    float64
}

// ErrRanks means the ranks given to Update do not match the ratings.
var ErrRanks = errors.New("rating: one rank per player is needed, at least two players")

// g is Glicko-2's weighting of an opponent by their deviation (on the
// Glicko-2 scale).
func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// Glicko2 is one Glicko-2 rating period for p: the games it played in the
// period against opponents rated as they were before it. With no games the
// deviation grows by the volatility, as the paper says for a player who
// did not compete. tau is the system constant (Tau when unsure).
func Glicko2(p Rating, games []Outcome, tau float64) Rating {
	p = p.orNew()
	mu := (p.R - Initial) / glickoScale
	phi := p.RD / glickoScale
	sigma := p.Vol
	if len(games) == 0 {
		return clampRD(Rating{R: p.R, RD: math.Sqrt(phi*phi+sigma*sigma) * glickoScale, Vol: sigma})
	}
	// Steps 3 and 4: the estimated variance v and improvement delta.
	var vInv, sum float64
	for _, o := range games {
		opp := o.Opponent.orNew()
		muJ := (opp.R - Initial) / glickoScale
		gJ := g(opp.RD / glickoScale)
		e := 1 / (1 + math.Exp(-gJ*(mu-muJ)))
		vInv += gJ * gJ * e * (1 - e)
		sum += gJ * (o.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility.
	sigma = newVolatility(phi, sigma, v, delta, tau)
	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	return clampRD(Rating{R: mu*glickoScale + Initial, RD: phi * glickoScale, Vol: sigma})
}

// newVolatility solves step 5 of Glickman's paper with the Illinois
// algorithm.
func newVolatility(phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < 1000 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 200; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// Period is the rating period of time away: each whole Period without a
// rated game grows a player's deviation once. A day suits an arcade where
// a rated game lasts minutes: weeks away already tell, months make a
// rating provisional again.
const Period = 24 * time.Hour

// IdlePeriods counts the whole rating periods from last (the end of the
// player's last rated game) to now: none when last is unknown (zero) or
// not before now.
func IdlePeriods(last, now time.Time) int {
	if last.IsZero() || !now.After(last) {
		return 0
	}
	return int(now.Sub(last) / Period)
}

// Idle is r after n rating periods in which the player did not compete:
// the rating and volatility stay, the deviation grows to √(RD² + n·σ²)
// (σ on the Glicko scale), which is Glicko-2's step 6 applied n times, and
// never past InitialRD. An unusable rating is returned unchanged.
func (r Rating) Idle(n int) Rating {
	if n <= 0 || !r.valid() {
		return r
	}
	s := r.Vol * glickoScale
	r.RD = math.Sqrt(r.RD*r.RD + float64(n)*s*s)
	return clampRD(r)
}

// At is r, as it was after a rated game that ended at last, as it stands
// at now: grown by the whole rating periods between them.
func (r Rating) At(last, now time.Time) Rating { return r.Idle(IdlePeriods(last, now)) }

// clampRD keeps the deviation at most InitialRD: nobody is ever less known
// than a newcomer.
func clampRD(r Rating) Rating {
	r.RD = min(r.RD, InitialRD)
	return r
}

// WengLin is the Weng-Lin Bradley-Terry full-pair update of one game: each
// player's skill mean and deviation (R and RD) move by comparing them with
// every other player. ranks[i] is player i's place (0 first; equal ranks
// tie). beta is the performance spread (Beta on the Glicko scale). The
// volatility is returned unchanged.
func WengLin(ratings []Rating, ranks []int, beta float64) ([]Rating, error) {
	if len(ratings) != len(ranks) || len(ratings) < 2 {
		return nil, ErrRanks
	}
	out := make([]Rating, len(ratings))
	for i, ri := range ratings {
		ri = ri.orNew()
		var omega, delta float64
		for q, rq := range ratings {
			if q == i {
				continue
			}
			rq = rq.orNew()
			c := math.Sqrt(ri.RD*ri.RD + rq.RD*rq.RD + 2*beta*beta)
			pIQ := 1 / (1 + math.Exp((rq.R-ri.R)/c))
			s := 0.0
			switch {
			case ranks[i] < ranks[q]:
				s = 1
			case ranks[i] == ranks[q]:
				s = 0.5
			}
			varRatio := ri.RD * ri.RD / c
			omega += varRatio * (s - pIQ)
			gamma := ri.RD / c
			delta += gamma * varRatio / c * pIQ * (1 - pIQ)
		}
		out[i] = Rating{
			R:   ri.R + omega,
			RD:  ri.RD * math.Sqrt(max(1-delta, kappa)),
			Vol: ri.Vol,
		}
	}
	return out, nil
}

// Update rates one finished game: ratings before it, in seat order, and
// each seat's place (0 first; equal places tie, as for a shared win or a
// game nobody won). Two players are rated with Glicko-2 (the game is one
// rating period for each); three or more with Weng-Lin, after growing each
// deviation by the volatility as a Glicko-2 period would.
func Update(ratings []Rating, ranks []int) ([]Rating, error) {
	if len(ratings) != len(ranks) || len(ratings) < 2 {
		return nil, ErrRanks
	}
	if len(ratings) == 2 {
		a, b := ratings[0].orNew(), ratings[1].orNew()
		sa := score(ranks[0], ranks[1])
		return []Rating{
			Glicko2(a, []Outcome{{Opponent: b, Score: sa}}, Tau),
			Glicko2(b, []Outcome{{Opponent: a, Score: 1 - sa}}, Tau),
		}, nil
	}
	grown := make([]Rating, len(ratings))
	for i, r := range ratings {
		r = r.orNew()
		r.RD = min(math.Hypot(r.RD, r.Vol*glickoScale), InitialRD)
		grown[i] = r
	}
	out, err := WengLin(grown, ranks, Beta)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i] = clampRD(out[i])
	}
	return out, nil
}

// score is the Glicko score of the player placed a against the one placed b.
func score(a, b int) float64 {
	switch {
	case a < b:
		return 1
	case a == b:
		return 0.5
	}
	return 0
}
