package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/engine/words"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/storage/postgres"
)

// exportVersion is the "v" of every exported line; readers refuse newer.
// Version 2 added account lines (kind "account"), which come first, and
// the rated and turns fields of games.
const exportVersion = 2

// exportedAccount is an account line of an export: a key account and its
// handle.
type exportedAccount struct {
	V        int       `json:"v"`
	Kind     string    `json:"kind"` // "account"
	Account  string    `json:"account"`
	Handle   string    `json:"handle"`
	Created  time.Time `json:"created"`
	LastSeen time.Time `json:"lastSeen"`
}

// exportedGame is one line of `codebreakers export`: a finished game with
// everything needed to replay it (engine.Record), who sat where, and the
// recorded result. Field names are part of the export format: add fields,
// never rename them.
type exportedGame struct {
	V        int            `json:"v"`
	Kind     string         `json:"kind,omitempty"` // empty: a game
	ID       string         `json:"id"`
	Game     string         `json:"game"`
	Code     string         `json:"code,omitempty"`
	Public   bool           `json:"public,omitempty"`
	Rated    bool           `json:"rated,omitempty"`
	Turns    int            `json:"turns,omitempty"`
	Seats    []exportedSeat `json:"seats"`
	Record   engine.Record  `json:"record"`
	Result   engine.Result  `json:"result"`
	Started  time.Time      `json:"started"`
	Finished time.Time      `json:"finished"`
}

// exportedSeat is who sat in one seat.
type exportedSeat struct {
	Account  string `json:"account,omitempty"` // key fingerprint or guest id; empty for bots
	Handle   string `json:"handle"`
	Bot      bool   `json:"bot,omitempty"`
	BotLevel string `json:"botLevel,omitempty"`
	Replaced bool   `json:"replaced,omitempty"` // a bot took over after the person left
}

func toExported(g storage.FinishedGame) exportedGame {
	seats := make([]exportedSeat, len(g.Seats))
	for i, s := range g.Seats {
		seats[i] = exportedSeat{Account: s.AccountID, Handle: s.Handle, Bot: s.Bot, BotLevel: s.BotLevel, Replaced: s.Replaced}
	}
	return exportedGame{
		V: exportVersion, ID: g.ID, Game: g.Record.Game, Code: g.Code, Public: g.Public, Rated: g.Rated, Turns: g.Turns, Seats: seats,
		Record: g.Record, Result: g.Result, Started: g.Started, Finished: g.Finished,
	}
}

func (e exportedGame) finishedGame() storage.FinishedGame {
	seats := make([]storage.SeatRecord, len(e.Seats))
	for i, s := range e.Seats {
		seats[i] = storage.SeatRecord{AccountID: s.Account, Handle: s.Handle, Bot: s.Bot, BotLevel: s.BotLevel, Replaced: s.Replaced}
	}
	return storage.FinishedGame{
		LiveGame: storage.LiveGame{ID: e.ID, Code: e.Code, Public: e.Public, Rated: e.Rated, Seats: seats, Record: e.Record, Started: e.Started},
		Result:   e.Result,
		Finished: e.Finished,
		Turns:    e.Turns,
	}
}

// exporter is what an export reads: the accounts and the finished games
// (a node's bbolt file, or a cluster's shared database).
type exporter interface {
	EachAccount(fn func(storage.Account) error) error
	EachFinishedGame(fn func(storage.FinishedGame) error) error
}

// exportGames writes every key account, then every finished game, of db
// as JSON lines, and returns how many games it wrote.
func exportGames(db exporter, w io.Writer) (int, error) {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	n := 0
	err := db.EachAccount(func(a storage.Account) error {
		if storage.IsGuest(a.ID) {
			return nil
		}
		return enc.Encode(exportedAccount{V: exportVersion, Kind: "account", Account: a.ID, Handle: a.Handle,
			Created: a.Created, LastSeen: a.LastSeen})
	})
	if err == nil {
		err = db.EachFinishedGame(func(g storage.FinishedGame) error {
			n++
			return enc.Encode(toExported(g))
		})
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	return n, nil
}

// checkReplay replays a record and checks the engine reaches the recorded
// result: proof that the export (or the database) still describes the game.
func checkReplay(reg *engine.Registry, rec engine.Record, want engine.Result) error {
	st, _, err := engine.Replay(reg, rec, -1)
	if err != nil {
		return err
	}
	got, ok := st.Result()
	if !ok {
		return fmt.Errorf("replay of %d moves does not finish the game", len(rec.Moves))
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("replay ends with %+v, but the record says %+v", got, want)
	}
	return nil
}

// opsFlags are the settings shared by backup, export and import.
type opsFlags struct {
	DataDir     string
	AdminSocket string
	Timeout     time.Duration
	// Postgres is a cluster's shared database: export reads it and import
	// writes it instead of the data directory.
	Postgres string
}

func (f opsFlags) dbPath() string { return filepath.Join(f.DataDir, dbFile) }

func (f opsFlags) socket() string {
	if f.AdminSocket == "" {
		return filepath.Join(f.DataDir, adminSocketName)
	}
	return f.AdminSocket
}

// parseOps parses an operator command's flags; usage names its argument.
func parseOps(name, usage string, args []string, getenv func(string) string, stderr io.Writer, out *string) (opsFlags, []string, error) {
	var f opsFlags
	settings := []setting{
		stringSetting(&f.DataDir, "./data", "data-dir", "CODEBREAKERS_DATA_DIR", "the server's data directory"),
		stringSetting(&f.AdminSocket, "", "admin-socket", "CODEBREAKERS_ADMIN_SOCKET", "the running server's admin socket (default DATA_DIR/"+adminSocketName+")"),
		durationSetting(&f.Timeout, 10*time.Minute, "timeout", "CODEBREAKERS_OPS_TIMEOUT", "give up after this long"),
	}
	if name != "backup" && name != "drain" { // a node's file only; back PostgreSQL up with its own tools
		settings = append(settings, stringSetting(&f.Postgres, "", "postgres", "CODEBREAKERS_POSTGRES",
			"a cluster's shared PostgreSQL database, used instead of --data-dir"))
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	for _, s := range settings {
		if err := s.bind(fs, s.name, s.usage+" (env "+s.env+")", getenv(s.env)); err != nil {
			return f, nil, err
		}
	}
	if out != nil {
		fs.StringVar(out, "out", "-", "write here instead of standard output")
	}
	fs.Usage = func() {
		fmt.Fprint(stderr, usage+"\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return f, nil, flag.ErrHelp
		}
		return f, nil, errUsage
	}
	return f, fs.Args(), nil
}

const backupUsage = `Usage: codebreakers backup [flags] PATH

Writes a consistent copy of the database to PATH. With a server running on
the data directory the copy is taken by the server itself, over its admin
socket, inside one read transaction: players keep playing. With no server
running the file is opened read-only and copied. The copy is checked page by
page before it replaces PATH. PATH "-" writes to standard output, unchecked.`

// backupCmd is `codebreakers backup PATH`.
func backupCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	f, rest, err := parseOps("backup", backupUsage, args, getenv, stderr, nil)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "codebreakers backup: give exactly one PATH to write the copy to (see --help)")
		return errUsage
	}
	ctx, cancel := context.WithTimeout(ctx, f.Timeout)
	defer cancel()
	dest := rest[0]
	if dest == "-" {
		_, how, err := copyDatabase(ctx, f, stdout)
		if err == nil {
			fmt.Fprintf(stderr, "backup written to standard output (%s)\n", how)
		}
		return err
	}
	tmp := dest + ".partial"
	file, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	n, how, err := copyDatabase(ctx, f, file)
	if err == nil {
		err = file.Sync()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = storage.VerifyFile(tmp)
	}
	if err == nil {
		err = os.Rename(tmp, dest)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	syncDir(filepath.Dir(dest))
	fmt.Fprintf(stdout, "backed up %d bytes to %s (%s; verified)\n", n, dest, how)
	return nil
}

// copyDatabase copies the database to w, from the running server when
// there is one, else from the file. how says which.
func copyDatabase(ctx context.Context, f opsFlags, w io.Writer) (int64, string, error) {
	n, err := askServer(ctx, f.socket(), "backup", w)
	if !errors.Is(err, errNoServer) {
		return n, "online copy from the running server", err
	}
	if _, err := os.Stat(f.dbPath()); err != nil {
		return 0, "", fmt.Errorf("no database at %s (wrong --data-dir?): %w", f.dbPath(), err)
	}
	n, err = storage.BackupFile(f.dbPath(), w, 2*time.Second)
	if errors.Is(err, storage.ErrLocked) {
		return 0, "", fmt.Errorf("a server holds %s but does not answer on %s; pass its --admin-socket, or stop it and retry: %w",
			f.dbPath(), f.socket(), err)
	}
	return n, "offline copy of the file", err
}

// syncDir makes a rename durable; failure only weakens that, so it is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

const exportUsage = `Usage: codebreakers export [flags]

Writes every finished game as one JSON object per line: id, game, seats,
result, times, and the record (options, players, seed, moves) that replays
it. Works with the server running (asked over its admin socket) or stopped.
Load it into a stopped server's data directory with codebreakers import.`

// exportCmd is `codebreakers export`.
func exportCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var out string
	f, rest, err := parseOps("export", exportUsage, args, getenv, stderr, &out)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		fmt.Fprintf(stderr, "codebreakers export: unexpected argument %q (use --out PATH)\n", rest[0])
		return errUsage
	}
	ctx, cancel := context.WithTimeout(ctx, f.Timeout)
	defer cancel()
	w, finish := stdout, func() error { return nil }
	if out != "-" {
		file, err := os.OpenFile(out, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		w, finish = file, func() error {
			err := file.Sync()
			return errors.Join(err, file.Close())
		}
	}
	if f.Postgres != "" {
		err = exportShared(ctx, f.Postgres, w, stderr)
	} else {
		_, err = askServer(ctx, f.socket(), "export", w)
		if errors.Is(err, errNoServer) {
			err = exportOffline(f, w)
		}
	}
	if ferr := finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// exportOffline reads the database file directly (no server running).
func exportOffline(f opsFlags, w io.Writer) error {
	db, err := openExisting(f)
	if err != nil {
		return err
	}
	_, err = exportGames(db, w)
	return errors.Join(err, db.Close())
}

// exportShared reads a cluster's shared database directly.
func exportShared(ctx context.Context, url string, w, stderr io.Writer) error {
	db, err := postgres.Open(ctx, url, postgres.Options{Logger: slog.New(slog.NewTextHandler(stderr, nil))})
	if err != nil {
		return err
	}
	_, err = exportGames(db, w)
	return errors.Join(err, db.Close())
}

// openExisting opens the data directory's database, refusing to create one.
func openExisting(f opsFlags) (*storage.DB, error) {
	if _, err := os.Stat(f.dbPath()); err != nil {
		return nil, fmt.Errorf("no database at %s (wrong --data-dir?): %w", f.dbPath(), err)
	}
	db, err := storage.Open(f.dbPath(), storage.Options{Timeout: 2 * time.Second})
	if errors.Is(err, storage.ErrLocked) {
		return nil, fmt.Errorf("%s is in use by a running server; stop it first: %w", f.dbPath(), err)
	}
	return db, err
}

const importUsage = `Usage: codebreakers import [flags] FILE

Loads accounts and finished games from a codebreakers export (JSON lines;
FILE "-" reads standard input) into the data directory, creating the
database when it is missing (the server must be stopped), or with
--postgres into a cluster's shared database (nodes may keep running).
Every game is replayed first and must reach its recorded result; games are
stored in the order they finished, so ratings come out as they were.
Accounts and games already present are skipped; a handle another account
holds there is refused.`

// importCmd is `codebreakers import FILE`.
func importCmd(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	f, rest, err := parseOps("import", importUsage, args, getenv, stderr, nil)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "codebreakers import: give exactly one FILE to read (see --help)")
		return errUsage
	}
	in := stdin
	if rest[0] != "-" {
		file, err := os.Open(rest[0])
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer file.Close()
		in = file
	}
	var db importer
	if f.Postgres != "" {
		ctx, cancel := context.WithTimeout(context.Background(), f.Timeout)
		defer cancel()
		pg, err := postgres.Open(ctx, f.Postgres, postgres.Options{Logger: slog.New(slog.NewTextHandler(stderr, nil))})
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		db = pg
	} else {
		bdb, err := storage.Open(f.dbPath(), storage.Options{Timeout: 2 * time.Second})
		if errors.Is(err, storage.ErrLocked) {
			return fmt.Errorf("import: %s is in use by a running server; stop it first", f.dbPath())
		}
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		db = bdb
	}
	n, err := importGames(db, games(), in)
	err = errors.Join(err, db.Close())
	fmt.Fprintf(stdout, "imported %s, %s; skipped %d already present\n",
		words.Count(n.added, "game", "games"), words.Count(n.accounts, "account", "accounts"), n.skipped)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	return nil
}

// maxExportLine bounds one exported game (a long game is tens of KB).
const maxExportLine = 16 << 20

// importer is where an import goes: a data directory's bbolt file or a
// cluster's shared database.
type importer interface {
	ClaimHandle(id, handle string) (storage.Account, error)
	Account(id string) (storage.Account, error)
	FinishGame(storage.FinishedGame) error
	Close() error
}

// imported counts what an import did.
type imported struct{ accounts, added, skipped int }

// importGames reads a whole export, checking that every game replays to
// its recorded result, then stores the accounts and, in the order they
// finished, the games. It stops at the first bad line, naming it, before
// storing anything.
func importGames(db importer, reg *engine.Registry, r io.Reader) (imported, error) {
	var n imported
	var accounts []exportedAccount
	var games []exportedGame
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxExportLine)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var head struct {
			V    int    `json:"v"`
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
			return n, fmt.Errorf("line %d: not an export line: %w", line, err)
		}
		if head.V > exportVersion {
			return n, fmt.Errorf("line %d: export format %d is newer than this build (%d)", line, head.V, exportVersion)
		}
		switch head.Kind {
		case "account":
			var a exportedAccount
			if err := json.Unmarshal(sc.Bytes(), &a); err != nil || a.Account == "" || a.Handle == "" {
				return n, fmt.Errorf("line %d: not an exported account: %v", line, err)
			}
			accounts = append(accounts, a)
		case "":
			var e exportedGame
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				return n, fmt.Errorf("line %d: not an exported game: %w", line, err)
			}
			if err := checkReplay(reg, e.Record, e.Result); err != nil {
				return n, fmt.Errorf("line %d: game %s: %w", line, e.ID, err)
			}
			e.Record.Moves = slices.Clip(e.Record.Moves)
			games = append(games, e)
		default:
			return n, fmt.Errorf("line %d: unknown kind %q", line, head.Kind)
		}
	}
	if err := sc.Err(); err != nil {
		return n, fmt.Errorf("read export: %w", err)
	}
	for _, a := range accounts {
		if _, err := db.Account(a.Account); err == nil {
			continue // already here: keep its handle
		}
		if _, err := db.ClaimHandle(a.Account, a.Handle); err != nil {
			return n, fmt.Errorf("account %s (%s): %w", a.Account, a.Handle, err)
		}
		n.accounts++
	}
	slices.SortStableFunc(games, func(a, b exportedGame) int { return a.Finished.Compare(b.Finished) })
	for _, e := range games {
		err := db.FinishGame(e.finishedGame())
		switch {
		case errors.Is(err, storage.ErrGameExists):
			n.skipped++
		case err != nil:
			return n, fmt.Errorf("game %s: %w", e.ID, err)
		default:
			n.added++
		}
	}
	return n, nil
}

const drainUsage = `Usage: codebreakers drain [flags]

Tells the running server to drain: its /healthz answers 503 from now on, so
a load balancer sends new players to the other nodes, and in a cluster the
directory marks it draining. Players already here play on; stop the server
(SIGTERM) once codebreakers_tables has fallen to what you can resume
elsewhere. Asks over the admin socket.`

// drainCmd is `codebreakers drain`.
func drainCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	f, rest, err := parseOps("drain", drainUsage, args, getenv, stderr, nil)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		fmt.Fprintf(stderr, "codebreakers drain: unexpected argument %q\n", rest[0])
		return errUsage
	}
	ctx, cancel := context.WithTimeout(ctx, f.Timeout)
	defer cancel()
	_, err = askServer(ctx, f.socket(), "drain", stdout)
	if errors.Is(err, errNoServer) {
		return fmt.Errorf("drain: no server answers on %s (wrong --data-dir or --admin-socket?)", f.socket())
	}
	return err
}
