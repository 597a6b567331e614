package whattherule

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rulelang"
)

// Phase says what the table is waiting for.
type Phase int

const (
	// Setup: the game master chooses the round's rule.
	Setup Phase = iota
	// Turn: the player to move plays a card or reveals their hand.
	Turn
	// JudgePlay: a free rule's game master judges the card just played.
	JudgePlay
	// JudgeReveal: the game master lays a fitting card from the revealed
	// hand, or (free rules) says none of it fits.
	JudgeReveal
	// GuessOffer: after a card that fits (or a hand that rightly had none),
	// the player to move may name the rule.
	GuessOffer
	// JudgeGuess: a free rule's game master judges the guess.
	JudgeGuess
	// HintVote: every seat, game master included, says yes or no to hints.
	HintVote
	// HintCheck: the game master announced a hint; each player may object.
	HintCheck
	// HintGive: nobody objected; the game master gives the hint.
	HintGive
	// Finished: the game is over; View.Result says how.
	Finished
)

// String names the phase.
func (p Phase) String() string {
	names := []string{"choosing a rule", "playing", "judging a card", "judging a hand",
		"guessing", "judging a guess", "voting on hints", "hint announced", "giving a hint", "finished"}
	if p >= 0 && int(p) < len(names) {
		return names[p]
	}
	return "unknown"
}

// Mode is how the round's rule is judged.
type Mode int

const (
	// NoRule: the game master has not chosen yet.
	NoRule Mode = iota
	// Machine: a rule-language rule, judged by the engine.
	Machine
	// Free: a rule in plain words, judged by the game master.
	Free
)

// String names the mode.
func (m Mode) String() string {
	switch m {
	case Machine:
		return "machine"
	case Free:
		return "free"
	}
	return "none"
}

// EndReason says why a round ended.
type EndReason string

// The ways a round ends.
const (
	EndGuessed   EndReason = "guessed"
	EndHandEmpty EndReason = "hand empty"
	EndDeckEmpty EndReason = "deck empty"
	EndCalledOff EndReason = "called off"
)

// Judgement is one public verdict: whether Card fitted after the first Line
// cards of the valid line.
type Judgement struct {
	Line int  `json:"line"`
	Card Card `json:"card"`
	Fits bool `json:"fits"`
}

// GuessRecord is one guess said out loud.
type GuessRecord struct {
	Seat  engine.Seat `json:"seat"`
	Text  string      `json:"text"` // canonical rule text (machine) or the words typed (free)
	Right bool        `json:"right"`
}

// round is everything that starts afresh each round.
type round struct {
	gm       engine.Seat
	mode     Mode
	ruleText string // canonical machine rule, or cleaned free text
	title    string // library title, if drawn
	grade    Grade  // library grade, if drawn
	library  bool
	rule     *rulelang.Rule // parsed machine rule (a cache of ruleText)

	deck  []int   // draw pile, top first
	hands [][]int // per seat; the game master's stays empty
	line  []int   // the valid line
	below [][]int // invalid cards under each spot; len(line)+1 columns

	toMove     engine.Seat
	turns      []int // turns taken per seat
	totalTurns int
	played     int // cards placed on the table (in or below the line)

	pendingCard  int   // free rule: the card being judged (-1 none)
	revealed     []int // the hand on show while it is judged
	pendingGuess string

	judgements []Judgement
	guesses    []GuessRecord
	guesser    engine.Seat // -1 until someone names the rule

	hintsOn      bool
	hints        []string
	proposed     []int  // hint proposals per seat
	votes        []int8 // 0 not yet, 1 yes (HintVote / HintCheck)
	proposer     engine.Seat
	lastHintTurn int // totalTurns when the last hint was given or blocked
}

// state is one game in progress.
type state struct {
	set     settings
	players []engine.Player
	n       int
	src     *rand.PCG // every shuffle and draw; a plain value, so clones copy it
	moves   int       // actions applied so far; timers name it
	firstGM engine.Seat
	phase   Phase
	r       round
	scores  []int
	history []RoundSummary
	result  *engine.Result
}

var _ engine.State = (*state)(nil)

func newState(set settings, players []engine.Player, seed uint64) *state {
	n := len(players)
	s := &state{
		set:     set,
		players: slices.Clone(players),
		n:       n,
		src:     rand.NewPCG(seed, 0x77686174_72756c65), // "whatrule"
		scores:  make([]int, n),
	}
	// Bots think of a rule quickest, so a bot leads the first round when
	// there is one: people start by guessing, which is the gentler way in.
	s.firstGM = engine.Seat(s.rng().IntN(n))
	if i := slices.IndexFunc(players, func(p engine.Player) bool { return p.Bot }); i >= 0 {
		s.firstGM = engine.Seat(i)
	}
	s.startRound()
	return s
}

// rng returns a generator drawing from the state's source.
func (s *state) rng() *rand.Rand { return rand.New(s.src) }

// totalRounds is how many rounds the game lasts.
func (s *state) totalRounds() int {
	if s.set.Rounds > 0 {
		return s.set.Rounds
	}
	return s.n
}

func (s *state) name(seat engine.Seat) string { return engine.SeatName(s.players, seat) }

// Status says who may act.
func (s *state) Status() engine.Status {
	return engine.StatusOf(s.turnNumber(), s.phase == Finished, s.active)
}

// turnNumber counts turns over the whole game, from 1.
func (s *state) turnNumber() int {
	t := 1 + s.r.totalTurns
	for _, h := range s.history {
		t += h.Turns
	}
	return t
}

// active lists the seats whose move the game is waiting for.
func (s *state) active() []engine.Seat {
	r := &s.r
	switch s.phase {
	case Setup, JudgePlay, JudgeReveal, JudgeGuess, HintGive:
		return []engine.Seat{r.gm}
	case Turn:
		out := []engine.Seat{r.toMove}
		if s.hintDue() {
			out = append(out, r.gm)
			slices.Sort(out)
		}
		return out
	case GuessOffer:
		return []engine.Seat{r.toMove}
	case HintVote, HintCheck:
		var out []engine.Seat
		for i, v := range r.votes {
			if v == 0 && (s.phase == HintVote || engine.Seat(i) != r.gm) {
				out = append(out, engine.Seat(i))
			}
		}
		return out
	}
	return nil
}

// hintDue reports whether the game master may be expected to announce a
// hint now: hints are on and a full lap of turns has passed since the last.
func (s *state) hintDue() bool {
	r := &s.r
	return s.phase == Turn && r.hintsOn && len(r.hints) < maxHints &&
		r.totalTurns-r.lastHintTurn >= max(2, s.n-1)
}

// Result reports how the game ended.
func (s *state) Result() (engine.Result, bool) { return engine.FinalResult(s.result) }

// Timer returns the pending timer: the game master's time to choose a rule,
// judge by hand or give a hint, the hint votes, and (when the table chose
// one) the turn timer.
func (s *state) Timer() *engine.Timer {
	var ms int
	switch s.phase {
	case Setup:
		ms = SetupMillis
	case Turn, GuessOffer:
		ms = s.set.TurnMilli
	case JudgePlay, JudgeGuess, HintVote, HintCheck, HintGive:
		ms = s.set.JudgeMilli
	case JudgeReveal:
		ms = s.set.JudgeMilli
	}
	return engine.TimerAfter(ms, TimeoutAction(s.moves))
}

// View returns a View for v.
func (s *state) View(v engine.Viewer) any { return s.view(v) }

// Apply validates and applies one action from seat.
func (s *state) Apply(seat engine.Seat, data []byte) ([]engine.Event, error) {
	var a Action
	if err := engine.OpenApply(s.phase == Finished, data, &a, "Choose exactly one move."); err != nil {
		return nil, err
	}
	var evs []engine.Event
	var err error
	if a.Timeout != nil {
		if seat != engine.System {
			return nil, engine.Illegal("Only the table's clock can end a wait.")
		}
		evs, err = s.timeout(a.Timeout.Seq)
	} else {
		if seat < 0 || int(seat) >= s.n {
			return nil, engine.Illegal("Only seated players can move.")
		}
		evs, err = s.dispatch(seat, a)
	}
	if err != nil {
		return nil, err
	}
	s.moves++
	return evs, nil
}

// dispatch routes a player's action. Every handler checks before it changes
// anything, so a refusal leaves the state as it was.
func (s *state) dispatch(seat engine.Seat, a Action) ([]engine.Event, error) {
	switch {
	case a.Rule != nil, a.Library != nil, a.Draw != nil, a.Free != nil:
		return s.setup(seat, a)
	case a.Play != nil:
		return s.play(seat, a.Play.Card)
	case a.Reveal:
		return s.reveal(seat)
	case a.Guess != nil:
		return s.guess(seat, a.Guess.Text)
	case a.NoGuess:
		if err := s.needTurn(seat, GuessOffer); err != nil {
			return nil, err
		}
		return s.endTurn(seat), nil
	case a.Judge != nil:
		return s.judge(seat, a.Judge.Fits)
	case a.Lay != nil:
		return s.lay(seat, a.Lay.Card)
	case a.NoFit:
		return s.noFit(seat)
	case a.CallOff:
		return s.callOff(seat)
	case a.ProposeHints:
		return s.proposeHints(seat)
	case a.Vote != nil:
		return s.vote(seat, a.Vote.Yes)
	case a.Announce:
		return s.announce(seat)
	default:
		return s.giveHint(seat, *a.Hint)
	}
}

// needTurn checks that seat is the player to move in phase p.
func (s *state) needTurn(seat engine.Seat, p Phase) error {
	r := &s.r
	if seat == r.gm {
		return engine.Illegal("You are the game master this round; the others play cards.")
	}
	if s.phase != p {
		return s.waitingFor()
	}
	if seat != r.toMove {
		return engine.Illegal("It is %s's turn.", s.name(r.toMove))
	}
	return nil
}

// needGM checks that seat is the game master.
func (s *state) needGM(seat engine.Seat) error {
	if seat != s.r.gm {
		return engine.Illegal("Only the game master, %s, can do that.", s.name(s.r.gm))
	}
	return nil
}

// waitingFor explains what the table waits for now.
func (s *state) waitingFor() error {
	r := &s.r
	gm := s.name(r.gm)
	switch s.phase {
	case Setup:
		return engine.Illegal("Wait: %s is choosing the rule.", gm)
	case Turn:
		return engine.Illegal("It is %s's turn to play a card or reveal.", s.name(r.toMove))
	case JudgePlay, JudgeReveal, JudgeGuess:
		return engine.Illegal("Wait: %s is judging.", gm)
	case GuessOffer:
		return engine.Illegal("Wait: %s may guess the rule now.", s.name(r.toMove))
	case HintVote:
		return engine.Illegal("First answer the hint vote: yes or no.")
	case HintCheck:
		return engine.Illegal("A hint is announced: allow it or object first.")
	case HintGive:
		return engine.Illegal("Wait: %s is giving a hint.", gm)
	}
	return engine.Illegal("That move is not possible now.")
}

// machineRule returns the round's parsed rule (machine mode only).
func (s *state) machineRule() *rulelang.Rule {
	r := &s.r
	if r.rule == nil && r.mode == Machine {
		r.rule = rulelang.MustParse(attrs, r.ruleText) // checked when it was set
	}
	return r.rule
}

// fits judges a card against the machine rule after the current line.
func (s *state) fits(card int) bool {
	return s.machineRule().Accepts(facesOf(s.r.line), faceOf(card))
}

// draw moves up to k cards from the top of the pile into seat's hand and
// returns them.
func (s *state) draw(seat engine.Seat, k int) []int {
	r := &s.r
	k = min(k, len(r.deck))
	got := slices.Clone(r.deck[:k])
	r.deck = slices.Delete(r.deck, 0, k)
	r.hands[seat] = append(r.hands[seat], got...)
	return got
}

// drawEvents narrates a draw: publicly how many, privately which.
func (s *state) drawEvents(seat engine.Seat, got []int, wanted int) []engine.Event {
	var evs []engine.Event
	if wanted > 0 {
		what := fmt.Sprintf("%d cards", len(got))
		if len(got) == 1 {
			what = "a card"
		}
		text := fmt.Sprintf("%s draws %s.", s.name(seat), what)
		if len(got) < wanted {
			text = fmt.Sprintf("%s draws %d of %d cards: the pile is empty.", s.name(seat), len(got), wanted)
		}
		evs = append(evs, engine.Event{Kind: "draw", Text: text})
	}
	if len(got) > 0 {
		evs = append(evs, engine.Event{Kind: "drew", Text: "You drew " + listCards(got) + ".",
			Others: s.name(seat) + " drew " + listCards(got) + ".", Seats: []engine.Seat{seat}})
	}
	return evs
}

func removeCard(hand []int, card int) ([]int, bool) {
	i := slices.Index(hand, card)
	if i < 0 {
		return hand, false
	}
	return slices.Delete(slices.Clone(hand), i, i+1), true
}

// clone deep-copies the state (tests use it to vary hidden cards).
func (s *state) clone() *state {
	c := *s
	c.players = slices.Clone(s.players)
	src := *s.src
	c.src = &src
	c.scores = slices.Clone(s.scores)
	c.history = make([]RoundSummary, len(s.history))
	for i := range s.history {
		c.history[i] = s.history[i].clone()
	}
	c.r = s.r.clone()
	if s.result != nil {
		res := *s.result
		res.Winners = slices.Clone(res.Winners)
		res.Scores = slices.Clone(res.Scores)
		c.result = &res
	}
	return &c
}

func (r round) clone() round {
	c := r
	c.deck = slices.Clone(r.deck)
	c.hands = cloneCols(r.hands)
	c.line = slices.Clone(r.line)
	c.below = cloneCols(r.below)
	c.turns = slices.Clone(r.turns)
	c.revealed = slices.Clone(r.revealed)
	c.judgements = slices.Clone(r.judgements)
	c.guesses = slices.Clone(r.guesses)
	c.hints = slices.Clone(r.hints)
	c.proposed = slices.Clone(r.proposed)
	c.votes = slices.Clone(r.votes)
	return c
}

func cloneCols(cols [][]int) [][]int {
	out := make([][]int, len(cols))
	for i := range cols {
		out[i] = slices.Clone(cols[i])
	}
	return out
}
