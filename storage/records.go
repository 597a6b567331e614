package storage

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/codebreakers/codebreakers/engine"
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
}

// GameSummary is one line of a player's history.
type GameSummary struct {
	ID       string
	Game     string
	Seats    []SeatRecord
	Result   engine.Result
	Finished time.Time
	Moves    int
}

// Stats are an account's running totals over finished games.
type Stats struct {
	Played, Won, Drawn int
	ByGame             map[string][2]int // game id → {played, won}
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
	Seats   []seatRecordV1  `json:"seats"`
	Game    string          `json:"game"`
	Options engine.Options  `json:"options,omitempty"`
	Players []engine.Player `json:"players"`
	Seed    uint64          `json:"seed"`
	Started time.Time       `json:"started"`
}

type finishedRecord struct {
	V        int            `json:"v"`
	ID       string         `json:"id"`
	Code     string         `json:"code"`
	Public   bool           `json:"public,omitempty"`
	Seats    []seatRecordV1 `json:"seats"`
	Record   engine.Record  `json:"record"`
	Started  time.Time      `json:"started"`
	Result   engine.Result  `json:"result"`
	Finished time.Time      `json:"finished"`
}

type statsRecord struct {
	V      int               `json:"v"`
	Played int               `json:"played"`
	Won    int               `json:"won"`
	Drawn  int               `json:"drawn"`
	ByGame map[string][2]int `json:"byGame,omitempty"`
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
		V: recordVersion, ID: g.ID, Code: g.Code, Public: g.Public, Seats: toSeatRecords(g.Seats),
		Game: g.Record.Game, Options: g.Record.Options, Players: g.Record.Players, Seed: g.Record.Seed,
		Started: g.Started,
	}
}

func (h liveHeader) liveGame(moves []engine.Move) LiveGame {
	return LiveGame{
		ID: h.ID, Code: h.Code, Public: h.Public, Seats: fromSeatRecords(h.Seats),
		Record: engine.Record{
			Game: h.Game, Options: h.Options, Players: h.Players, Seed: h.Seed, Moves: moves,
		},
		Started: h.Started,
	}
}

func newFinishedRecord(g FinishedGame) finishedRecord {
	return finishedRecord{
		V: recordVersion, ID: g.ID, Code: g.Code, Public: g.Public, Seats: toSeatRecords(g.Seats),
		Record: g.Record, Started: g.Started, Result: g.Result, Finished: g.Finished,
	}
}

func (r finishedRecord) finishedGame() FinishedGame {
	return FinishedGame{
		LiveGame: LiveGame{
			ID: r.ID, Code: r.Code, Public: r.Public, Seats: fromSeatRecords(r.Seats),
			Record: r.Record, Started: r.Started,
		},
		Result:   r.Result,
		Finished: r.Finished,
	}
}

// summaryRecord reads a finishedRecord without keeping its moves: History
// only needs their number, and skipping them keeps listings cheap.
type summaryRecord struct {
	V      int            `json:"v"`
	ID     string         `json:"id"`
	Seats  []seatRecordV1 `json:"seats"`
	Record struct {
		Game  string     `json:"game"`
		Moves []struct{} `json:"moves"` // each move decodes to nothing: counted, not kept
	} `json:"record"`
	Result   engine.Result `json:"result"`
	Finished time.Time     `json:"finished"`
}

func (r summaryRecord) version() int { return r.V }

func (r summaryRecord) summary() GameSummary {
	return GameSummary{
		ID: r.ID, Game: r.Record.Game, Seats: fromSeatRecords(r.Seats), Result: r.Result,
		Finished: r.Finished, Moves: len(r.Record.Moves),
	}
}

func (r statsRecord) stats() Stats {
	s := Stats{Played: r.Played, Won: r.Won, Drawn: r.Drawn, ByGame: make(map[string][2]int, len(r.ByGame))}
	for k, v := range r.ByGame {
		s.ByGame[k] = v
	}
	return s
}
