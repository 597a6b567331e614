package breakcode

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

// The strong bot's moves were recorded in testdata/bot_golden.txt before
// its question scoring was made faster: one line per seeded game with the
// SHA-256 of every action taken, in order. A faster bot must take exactly
// the same moves. To record again (only when a change of play is meant):
//
//	BREAKCODE_GOLDEN_UPDATE=1 go test -run TestBotMatchesGolden ./engine/breakcode
const goldenFile = "testdata/bot_golden.txt"

// goldenGames lists the recorded games: 300 with 2 players, 100 with 3 and
// 50 with 4. Strong bots sit in every seat, except that every third game
// puts an easy bot in the last seat (so strong bots also face odd play).
func goldenGames() []goldenGame {
	var out []goldenGame
	for _, g := range []struct{ players, games int }{{2, 300}, {3, 100}, {4, 50}} {
		for seed := range uint64(g.games) {
			levels := make([]string, g.players)
			for i := range levels {
				levels[i] = LevelStrong
			}
			if seed%3 == 2 {
				levels[g.players-1] = LevelEasy
			}
			out = append(out, goldenGame{seed: seed, levels: levels})
		}
	}
	return out
}

type goldenGame struct {
	seed   uint64
	levels []string
}

func (g goldenGame) key() string {
	return fmt.Sprintf("%dp seed=%d %s", len(g.levels), g.seed, strings.Join(g.levels, ","))
}

// play plays the game to its end and returns the digest of every action
// and how many there were.
func (g goldenGame) play(tb testing.TB) (string, int) {
	tb.Helper()
	n := len(g.levels)
	s := newState(false, make([]engine.Player, n), g.seed)
	bots := make([]*Bot, n)
	for i, l := range g.levels {
		bots[i] = &Bot{Seat: engine.Seat(i), Level: l, Seed: g.seed*8 + uint64(i)}
	}
	h := sha256.New()
	moves := 0
	for s.phase != Finished {
		a, err := bots[s.toMove].Act(s.view(engine.SeatViewer(s.toMove)))
		if err != nil || a == nil {
			tb.Fatalf("%s: bot %d: %s %v", g.key(), s.toMove, a, err)
		}
		fmt.Fprintf(h, "%d %s\n", s.toMove, a)
		if _, err := s.Apply(s.toMove, a); err != nil {
			tb.Fatalf("%s: bot %d played %s: %v", g.key(), s.toMove, a, err)
		}
		moves++
	}
	return hex.EncodeToString(h.Sum(nil)), moves
}

func TestBotMatchesGolden(t *testing.T) {
	games := goldenGames()
	if os.Getenv("BREAKCODE_GOLDEN_UPDATE") == "1" {
		var b strings.Builder
		for _, g := range games {
			sum, moves := g.play(t)
			fmt.Fprintf(&b, "%s moves=%d %s\n", g.key(), moves, sum)
		}
		if err := os.MkdirAll(filepath.Dir(goldenFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, " moves=")
		if i < 0 {
			t.Fatalf("bad golden line %q", line)
		}
		want[line[:i]] = line[i+1:]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(games) {
		t.Fatalf("golden file has %d games, want %d", len(want), len(games))
	}
	// Under the race detector or -short, every seventh game (still all
	// three table sizes and both line-ups).
	stride := 1
	if testing.Short() || raceEnabled {
		stride = 7
	}
	checked, moves := 0, 0
	for i := 0; i < len(games); i += stride {
		g := games[i]
		sum, m := g.play(t)
		if got := fmt.Sprintf("moves=%d %s", m, sum); got != want[g.key()] {
			t.Errorf("%s: %s, recorded %s", g.key(), got, want[g.key()])
		}
		checked++
		moves += m
	}
	t.Logf("%d games, %d moves as recorded", checked, moves)
}

// questionInfoReference is questionInfo as it was before it was made
// faster, kept to check the fast one: 3 players enumerate every (A, B,
// centre) deal; 2 and 4 players sum each opponent's answer entropy.
func questionInfoReference(k *knowledge, b belief, vs []int) []float64 {
	out := make([]float64, len(vs))
	switch k.n {
	case 3:
		counts := make([][]float64, len(vs))
		for i := range counts {
			counts[i] = make([]float64, 64*64)
		}
		k.forJoint3(func(a, bb uint32) {
			ansA := &k.table.answers[k.handID[a]]
			ansB := &k.table.answers[k.handID[bb]]
			for i, v := range vs {
				counts[i][int(ansA[v])*64+int(ansB[v])]++
			}
		})
		for i := range vs {
			out[i] = entropy(counts[i])
		}
	default:
		for j := range k.opps {
			for i, v := range vs {
				var dist [64]float64
				for idx, m := range k.ok[j] {
					if w := b.opp[j][idx]; w > 0 {
						dist[k.table.answers[k.handID[m]][v]] += w
					}
				}
				out[i] += entropy(dist[:])
			}
		}
	}
	return out
}

// Every question's score, not only the face-up ones the bot compares, is
// bit for bit the reference score, at every strong bot decision of some of
// the recorded games (and after every move, for every seat, in 3-player
// games, so that seats which saw the centre are covered too); and the
// pruned choice, by each way of counting, is the reference's choice (see
// checkPrunedChoice), there and in 3-player games of random moves.
func TestQuestionInfoMatchesReference(t *testing.T) {
	all := make([]int, variants)
	for i := range all {
		all[i] = i
	}
	perSize := map[int]int{2: 20, 3: 8, 4: 6}
	if testing.Short() || raceEnabled {
		perSize = map[int]int{2: 4, 3: 2, 4: 2}
	}
	randomGames := 3
	if testing.Short() || raceEnabled {
		randomGames = 1
	}
	rng := rand.New(rand.NewPCG(73, 1))
	compared, left := 0, 0
	for _, g := range goldenGames() {
		n := len(g.levels)
		if g.seed >= uint64(perSize[n]) {
			continue
		}
		s := newState(false, make([]engine.Player, n), g.seed)
		for s.phase != Finished {
			for seat := range n {
				if seat != int(s.toMove) && n != 3 {
					continue
				}
				k := newKnowledge(s.view(engine.SeatViewer(engine.Seat(seat))))
				bel := k.belief()
				got, want := k.questionInfo(bel, all), questionInfoReference(k, bel, all)
				for v := range all {
					if got[v] != want[v] {
						t.Fatalf("%s turn %d seat %d variant %d: %v bits, reference %v", g.key(), s.turns, seat, v, got[v], want[v])
					}
				}
				if n == 3 && k.centreKnown < 0 {
					// Both ways of counting the joint answers, whichever
					// questionInfo picked (enumeration only where it is quick).
					ways := map[string]func() [][]float64{"subsets": func() [][]float64 { return k.subsetAnswers3(bel, all, false) }}
					if len(k.ok[0])*len(k.ok[1]) < 200_000 {
						ways["enumeration"] = func() [][]float64 { return k.enumeratedAnswers3(bel, all, false) }
					}
					for name, way := range ways {
						for v, hist := range way() {
							if got := entropy(hist); got != want[v] {
								t.Fatalf("%s turn %d seat %d variant %d: %v bits by %s, reference %v", g.key(), s.turns, seat, v, got, name, want[v])
							}
						}
					}
				}
				left += checkPrunedChoice(t, fmt.Sprintf("%s turn %d seat %d", g.key(), s.turns, seat), k, bel, s, want, rng)
				compared++
			}
			bot := &Bot{Seat: s.toMove, Level: g.levels[s.toMove], Seed: g.seed*8 + uint64(s.toMove)}
			a, err := bot.Act(s.view(engine.SeatViewer(s.toMove)))
			if err != nil {
				t.Fatal(err)
			}
			mustApply(t, s, s.toMove, a)
		}
	}
	// And 3-player games of random moves (wrong guesses, seats that saw
	// the centre, answers the strong bots would not draw out).
	for g := range randomGames {
		seed := uint64(7_300 + g)
		play := rand.New(rand.NewPCG(seed, 9))
		s := newState(false, make([]engine.Player, 3), seed)
		for s.phase != Finished {
			for seat := range 3 {
				k := newKnowledge(s.view(engine.SeatViewer(engine.Seat(seat))))
				bel := k.belief()
				want := questionInfoReference(k, bel, all)
				left += checkPrunedChoice(t, fmt.Sprintf("random 3p seed %d turn %d seat %d", seed, s.turns, seat), k, bel, s, want, rng)
				compared++
			}
			if _, err := s.Apply(s.toMove, randomAction(play, s)); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
	}
	if left == 0 {
		t.Fatal("no question was ever left out: pruning is not checked")
	}
	t.Logf("%d positions compared, %d questions left out", compared, left)
}

// checkPrunedChoice checks the strong bot's pruned choice at one position
// against the reference scores want (every variant's, worked out by
// enumerating every deal): over the face-up questions as the bot lists
// them, every question in table order and in a shuffled order,
// bestQuestion picks what pickQuestion picks from the reference; every
// question questionInfos counts when pruning scores exactly its reference;
// and every one left out scores well below the best (see pruneGap). With 3
// players and the centre unseen, both ways of counting (subsets and, where
// quick, deals) are checked the same way apart. It returns how many
// questions were left out.
func checkPrunedChoice(t *testing.T, where string, k *knowledge, bel belief, s *state, want []float64, rng *rand.Rand) int {
	t.Helper()
	var faceUp []int
	for _, c := range s.faceUp {
		nums := CardNumbers(c)
		if nums == nil {
			nums = []int{0}
		}
		for _, n := range nums {
			faceUp = append(faceUp, variantOf(c, n))
		}
	}
	table := make([]int, variants)
	for i := range table {
		table[i] = i
	}
	left := 0
	for _, vs := range [][]int{faceUp, table, rng.Perm(variants)} {
		ref := make([]float64, len(vs))
		for i, v := range vs {
			ref[i] = want[v]
		}
		if got, exact := k.bestQuestion(bel, vs), pickQuestion(ref); got != exact {
			t.Fatalf("%s: picks question %d of %v, the reference scores %v pick %d", where, got, vs, ref, exact)
		}
		check := func(how string, info []float64) {
			for i, x := range info {
				if !math.IsInf(x, -1) {
					if x != ref[i] {
						t.Fatalf("%s: question %d scores %v %s, reference %v", where, vs[i], x, how, ref[i])
					}
					continue
				}
				left++
				if ref[i] >= slices.Max(ref)-2*float64(len(vs)+1)*1e-9 {
					t.Fatalf("%s: question %d left out %s, though it scores %v of the best %v", where, vs[i], how, ref[i], slices.Max(ref))
				}
			}
		}
		check("when pruning", k.questionInfos(bel, vs, true))
		if k.n == 3 && k.centreKnown < 0 {
			entropies := func(hists [][]float64) []float64 {
				out := make([]float64, len(hists))
				for i, h := range hists {
					out[i] = math.Inf(-1)
					if h != nil {
						out[i] = entropy(h)
					}
				}
				return out
			}
			check("by subsets, pruning", entropies(k.subsetAnswers3(bel, vs, true)))
			if len(k.ok[0])*len(k.ok[1]) < 200_000 {
				check("by deals, pruning", entropies(k.enumeratedAnswers3(bel, vs, true)))
			}
		}
	}
	return left
}

// pickQuestion is the strong bot's rule over exact scores: in order, a
// question replaces the one chosen so far when it scores more than 1e-9
// bits more.
func pickQuestion(info []float64) int {
	best := 0
	for i := range info {
		if info[i] > info[best]+1e-9 {
			best = i
		}
	}
	return best
}

// bestQuestion, which leaves out (3 players) questions whose answers'
// own entropies add up to well less than another question scored, picks
// the question the exact scores pick, over the face-up questions, all of
// them and all of them in shuffled orders, from every seat of random
// games; every question it leaves out scores well below the best (see
// pruneGap); the ones it counts score what they score exactly; and it does
// leave some out.
func TestBestQuestionIsTheExactChoice(t *testing.T) {
	games := map[int]int{2: 4, 3: 6, 4: 2}
	if testing.Short() || raceEnabled {
		games = map[int]int{2: 1, 3: 2, 4: 1}
	}
	left, compared := 0, 0
	for n := 2; n <= 4; n++ {
		for g := range games[n] {
			seed := uint64(8_800 + n*10 + g)
			rng := rand.New(rand.NewPCG(seed, 6))
			s := newState(false, make([]engine.Player, n), seed)
			for s.phase != Finished {
				for seat := range n {
					k := newKnowledge(s.view(engine.SeatViewer(engine.Seat(seat))))
					bel := k.belief()
					var faceUp []int
					for _, c := range s.faceUp {
						faceUp = append(faceUp, variantOf(c, firstNumberOr0(c)))
					}
					all := rng.Perm(variants)
					orders := [][]int{faceUp, all, slices.Sorted(slices.Values(all))}
					for _, vs := range orders {
						exact := k.questionInfo(bel, vs)
						if got, want := k.bestQuestion(bel, vs), pickQuestion(exact); got != want {
							t.Fatalf("%dp seed %d turn %d seat %d: question %d of %v, exact scores %v pick %d", n, seed, s.turns, seat, got, vs, exact, want)
						}
						for i, x := range k.questionInfos(bel, vs, true) {
							if !math.IsInf(x, -1) {
								if x != exact[i] {
									t.Fatalf("%dp seed %d turn %d seat %d: question %d scores %v when pruning, %v exactly", n, seed, s.turns, seat, i, x, exact[i])
								}
								continue
							}
							left++
							if exact[i] >= slices.Max(exact)-2*float64(len(vs)+1)*1e-9 {
								t.Fatalf("%dp seed %d turn %d seat %d: question %d left out, though it scores %v of the best %v", n, seed, s.turns, seat, i, exact[i], slices.Max(exact))
							}
						}
						compared++
					}
				}
				if _, err := s.Apply(s.toMove, randomAction(rng, s)); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		}
	}
	if left == 0 {
		t.Fatal("no question was ever left out: the bound checks nothing")
	}
	t.Logf("%d choices compared, %d questions left out", compared, left)
}

// Leaving out (as -Inf) any questions that score more than pruneGap below
// the best never changes pickQuestion's choice, even on scores that climb
// in steps of a fraction of its 1e-9 tolerance, where choosing depends on
// the order; while a gap of only 1e-9 would change it for some of them
// (so the sequences are hard enough to tell).
func TestPruneGapKeepsTheChoice(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	changes := func(gap func(n int) float64) int {
		changed := 0
		for range 20_000 {
			n := 1 + rng.IntN(25)
			info := make([]float64, n)
			for i := range info {
				info[i] = 3 + float64(rng.IntN(4*n))*0.35e-9
			}
			top := slices.Max(info)
			pruned := slices.Clone(info)
			for i, x := range info {
				if x < top-gap(n)+1e-9 && rng.IntN(2) == 0 { // the extra 1e-9 is pruneGap's for rounding
					pruned[i] = math.Inf(-1)
				}
			}
			if pickQuestion(pruned) != pickQuestion(info) {
				changed++
			}
		}
		return changed
	}
	if n := changes(pruneGap); n != 0 {
		t.Fatalf("leaving out questions pruneGap below the best changed the choice %d times", n)
	}
	if changes(func(int) float64 { return 2e-9 }) == 0 {
		t.Fatal("no sequence tells pruneGap from a gap of 1e-9: the test checks too little")
	}
}
