package storage

import (
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/rating"
)

// Account is a player known by their SSH key fingerprint (or guest id).
type Account struct {
	ID       string
	Handle   string
	Created  time.Time
	LastSeen time.Time
}

// SeatRecord says who sat in one seat of a game.
type SeatRecord struct {
	AccountID string // empty for bots
	Handle    string
	Bot       bool
	BotLevel  string
	Replaced  bool // a bot took over after the person left
}

// LiveGame is a game in progress.
type LiveGame struct {
	ID     string // short unique game id from NewGameID
	Code   string // the table's join code
	Public bool
	// Rated asks for the game to change its players' ratings when it
	// finishes. FinishGame rates it only when every seat is a key account
	// (no bots, no guests) and the game is competitive.
	Rated  bool
	Seats  []SeatRecord
	Record engine.Record // Moves holds every move appended so far
	// Started is when the game was dealt.
	Started time.Time
}

// FinishedGame is a game that reached its end, with every move.
type FinishedGame struct {
	LiveGame
	Result   engine.Result
	Finished time.Time
	// Turns is how many turns the game took (Status().Turn-1 at the end);
	// 0 when unknown (games stored before it was kept).
	Turns int
	// Changes are the rating changes the game made, one per seat, filled
	// by FinishGame for a rated game (the caller's value is ignored).
	// Empty when the game was not rated.
	Changes []RatingChange
}

// RatingChange is one seat's rating before and after a rated game. Before
// is the rating the game rated from: the stored one with its deviation
// grown for the days away since the seat's last rated game.
type RatingChange struct {
	Seat   int           `json:"seat"`
	Before rating.Rating `json:"before"`
	After  rating.Rating `json:"after"`
}

// GameSummary is one line of a player's history or of a list of finished
// games.
type GameSummary struct {
	ID       string
	Game     string
	Public   bool
	Rated    bool
	Seats    []SeatRecord
	Result   engine.Result
	Finished time.Time
	Moves    int
	// Outcome is how it went for the account whose history this is
	// (NotPlayed in listings that belong to nobody).
	Outcome Outcome
	// TopRating is the highest rating at the table when it began (0 for
	// unrated games).
	TopRating float64
}

// Totals count finished games by outcome.
type Totals struct {
	Played     int `json:"played"`
	Won        int `json:"won"`
	SharedWins int `json:"shared,omitempty"`
	Lost       int `json:"lost,omitempty"`
	NoWinner   int `json:"noWinner,omitempty"`
	Left       int `json:"left,omitempty"`
}

// Wins counts the games won alone or shared.
func (t Totals) Wins() int { return t.Won + t.SharedWins }

// add counts one game with outcome o.
func (t *Totals) add(o Outcome) {
	t.Played++
	switch o {
	case Won:
		t.Won++
	case SharedWin:
		t.SharedWins++
	case Lost:
		t.Lost++
	case NoWinner:
		t.NoWinner++
	case Left:
		t.Left++
	}
}

// Stats are an account's running totals over finished games, overall and
// per game id.
type Stats struct {
	Totals
	ByGame map[string]Totals
}

// recordVersion is the version written into every JSON record. Readers
// refuse records from a newer build instead of misreading them.
const recordVersion = 1

// versioned is implemented by every stored record.
type versioned interface{ version() int }

type accountRecord struct {
	V        int       `json:"v"`
	ID       string    `json:"id"`
	Handle   string    `json:"handle"`
	Created  time.Time `json:"created"`
	LastSeen time.Time `json:"lastSeen"`
}

type seatRecordV1 struct {
	AccountID string `json:"account,omitempty"`
	Handle    string `json:"handle"`
	Bot       bool   `json:"bot,omitempty"`
	BotLevel  string `json:"botLevel,omitempty"`
	Replaced  bool   `json:"replaced,omitempty"`
}

// liveHeader is a live game without its moves, which live in their own
// bucket so appending one is a single small Put.
type liveHeader struct {
	V       int             `json:"v"`
	ID      string          `json:"id"`
	Code    string          `json:"code"`
	Public  bool            `json:"public,omitempty"`
	Rated   bool            `json:"rated,omitempty"`
	Seats   []seatRecordV1  `json:"seats"`
	Game    string          `json:"game"`
	Options engine.Options  `json:"options,omitempty"`
	Players []engine.Player `json:"players"`
	Seed    uint64          `json:"seed"`
	Started time.Time       `json:"started"`
	// From is the first sequence of the live log that holds the game's
	// moves (see livelog.go); absent in headers written before it was
	// recorded, which own every entry of their id.
	From uint64 `json:"from,omitempty"`
}

type finishedRecord struct {
	V        int            `json:"v"`
	ID       string         `json:"id"`
	Code     string         `json:"code"`
	Public   bool           `json:"public,omitempty"`
	Rated    bool           `json:"rated,omitempty"`
	Seats    []seatRecordV1 `json:"seats"`
	Record   engine.Record  `json:"record"`
	Started  time.Time      `json:"started"`
	Result   engine.Result  `json:"result"`
	Finished time.Time      `json:"finished"`
	Turns    int            `json:"turns,omitempty"`
	Changes  []RatingChange `json:"ratings,omitempty"`
}

// statsRecord holds an account's totals. Schema 1 kept played/won/drawn
// and a byGame map of [played, won]; the schema 2 migration recounts every
// account's stats from its games in the new shape.
type statsRecord struct {
	V int `json:"v"`
	Totals
	ByGame map[string]Totals `json:"games,omitempty"`
}

// abandonedRecord keeps a broken game's log for a post-mortem.
type abandonedRecord struct {
	V         int               `json:"v"`
	Header    json.RawMessage   `json:"header"`
	Moves     []json.RawMessage `json:"moves"`
	Abandoned time.Time         `json:"abandoned"`
}

func (r accountRecord) version() int   { return r.V }
func (r liveHeader) version() int      { return r.V }
func (r finishedRecord) version() int  { return r.V }
func (r statsRecord) version() int     { return r.V }
func (r abandonedRecord) version() int { return r.V }

// decode unmarshals a stored record and checks its version.
func decode[T versioned](raw []byte, what string) (T, error) {
	var rec T
	if err := json.Unmarshal(raw, &rec); err != nil {
		return rec, fmt.Errorf("decode %s: %w", what, err)
	}
	switch v := rec.version(); {
	case v < 1:
		return rec, fmt.Errorf("decode %s: missing record version", what)
	case v > recordVersion:
		return rec, fmt.Errorf("decode %s: record version %d is newer than this build (%d)", what, v, recordVersion)
	}
	return rec, nil
}

func toSeatRecords(seats []SeatRecord) []seatRecordV1 {
	out := make([]seatRecordV1, len(seats))
	for i, s := range seats {
		out[i] = seatRecordV1(s)
	}
	return out
}

func fromSeatRecords(seats []seatRecordV1) []SeatRecord {
	out := make([]SeatRecord, len(seats))
	for i, s := range seats {
		out[i] = SeatRecord(s)
	}
	return out
}

func (r accountRecord) account() Account {
	return Account{ID: r.ID, Handle: r.Handle, Created: r.Created, LastSeen: r.LastSeen}
}

func newLiveHeader(g LiveGame) liveHeader {
	return liveHeader{
		V: recordVersion, ID: g.ID, Code: g.Code, Public: g.Public, Rated: g.Rated, Seats: toSeatRecords(g.Seats),
		Game: g.Record.Game, Options: g.Record.Options, Players: g.Record.Players, Seed: g.Record.Seed,
		Started: g.Started,
	}
}

func (h liveHeader) liveGame(moves []engine.Move) LiveGame {
	return LiveGame{
		ID: h.ID, Code: h.Code, Public: h.Public, Rated: h.Rated, Seats: fromSeatRecords(h.Seats),
		Record: engine.Record{
			Game: h.Game, Options: h.Options, Players: h.Players, Seed: h.Seed, Moves: moves,
		},
		Started: h.Started,
	}
}

func newFinishedRecord(g FinishedGame) finishedRecord {
	return finishedRecord{
		V: recordVersion, ID: g.ID, Code: g.Code, Public: g.Public, Rated: g.Rated, Seats: toSeatRecords(g.Seats),
		Record: g.Record, Started: g.Started, Result: g.Result, Finished: g.Finished, Turns: g.Turns,
		Changes: g.Changes,
	}
}

func (r finishedRecord) finishedGame() FinishedGame {
	return FinishedGame{
		LiveGame: LiveGame{
			ID: r.ID, Code: r.Code, Public: r.Public, Rated: r.Rated, Seats: fromSeatRecords(r.Seats),
			Record: r.Record, Started: r.Started,
		},
		Result:   r.Result,
		Finished: r.Finished,
		Turns:    r.Turns,
		Changes:  r.Changes,
	}
}

// summaryRecord reads a finishedRecord without keeping its moves: History
// only needs their number, and skipping them keeps listings cheap.
type summaryRecord struct {
	V      int            `json:"v"`
	ID     string         `json:"id"`
	Public bool           `json:"public,omitempty"`
	Rated  bool           `json:"rated,omitempty"`
	Seats  []seatRecordV1 `json:"seats"`
	Record struct {
		Game  string     `json:"game"`
		Moves []struct{} `json:"moves"` // each move decodes to nothing: counted, not kept
	} `json:"record"`
	Result   engine.Result  `json:"result"`
	Finished time.Time      `json:"finished"`
	Changes  []RatingChange `json:"ratings,omitempty"`
}

func (r summaryRecord) version() int { return r.V }

func (r summaryRecord) summary() GameSummary {
	return GameSummary{
		ID: r.ID, Game: r.Record.Game, Public: r.Public, Rated: r.Rated, Seats: fromSeatRecords(r.Seats),
		Result: r.Result, Finished: r.Finished, Moves: len(r.Record.Moves), TopRating: topRating(r.Changes),
	}
}

// topRating is the highest rating at the table before the game.
func topRating(changes []RatingChange) float64 {
	top := 0.0
	for _, c := range changes {
		top = max(top, c.Before.R)
	}
	return top
}

func (r statsRecord) stats() Stats {
	s := Stats{Totals: r.Totals, ByGame: maps.Clone(r.ByGame)}
	if s.ByGame == nil {
		s.ByGame = map[string]Totals{}
	}
	return s
}
