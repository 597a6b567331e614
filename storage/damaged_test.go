package storage

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine"
)

// sampleImage is a database file's bytes, exactly as long as its last
// commit (a backup), holding accounts, finished games and a live game
// across many pages, and its page size.
func sampleImage(t *testing.T) (image []byte, pageSize int) {
	t.Helper()
	db, _ := openTemp(t)
	for i := range 60 {
		if _, err := db.ClaimHandle(fmt.Sprintf("SHA256:acct%03d", i), fmt.Sprintf("player%03d", i)); err != nil {
			t.Fatal(err)
		}
		g := sampleLive(fmt.Sprintf("G%04d", i))
		for m := range 20 {
			g.Record.Moves = append(g.Record.Moves, move(m%3, fmt.Sprintf(`{"n":%d,"pad":%q}`, m, strings.Repeat("x", 40))))
		}
		if err := db.FinishGame(finish(g, engine.Result{Winners: []engine.Seat{0}, Summary: "Ann wins"}, time.Unix(int64(i), 0))); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.StartGame(sampleLive("LIVE1")); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := db.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	meta, err := currentMeta(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), int(meta.pageSize)
}

// openImage writes image as a data directory's database and opens it.
func openImage(t *testing.T, image []byte) (string, *DB, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data", "codebreakers.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, image, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, quietOptions())
	if err == nil {
		t.Cleanup(func() { _ = db.Close() })
	}
	return path, db, err
}

// refused checks that err is a clear refusal: ErrDamaged, naming the file
// and the RUNBOOK's restore section.
func refused(t *testing.T, what, path string, err error) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: opened", what)
	case !errors.Is(err, ErrDamaged):
		t.Errorf("%s: %v; want %v", what, err, ErrDamaged)
	case !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "RUNBOOK.md") || !strings.Contains(err.Error(), "Restore"):
		t.Errorf("%s: %q does not name the file and the restore section", what, err)
	}
}

// The attack: a zero-length codebreakers.db was silently recreated empty,
// every account and handle gone.
func TestEmptyDatabaseFileIsRefusedNotRecreated(t *testing.T) {
	_, path := openTemp(t)
	path = filepath.Join(filepath.Dir(path), "again", "codebreakers.db")
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ClaimHandle("SHA256:ann", "Ann"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	_, err = Open(path, quietOptions())
	refused(t, "an empty file", path, err)
	if !strings.Contains(fmt.Sprint(err), "empty") {
		t.Errorf("the refusal does not say the file is empty: %v", err)
	}
	if info, err := os.Stat(path); err != nil || info.Size() != 0 {
		t.Errorf("the empty file was written to: %v, %v", info, err)
	}
}

// The attack: truncated files crashed the start with SIGBUS or a panic.
// Every cut is refused, and the test process lives to say so.
func TestTruncatedDatabaseIsRefusedWithoutACrash(t *testing.T) {
	image, ps := sampleImage(t)
	for _, n := range []int{1, 100, ps - 1, ps, 2*ps + 7, 4 * ps, len(image) / 2, len(image) - ps, len(image) - 1} {
		path, _, err := openImage(t, image[:n])
		refused(t, fmt.Sprintf("cut to %d of %d bytes", n, len(image)), path, err)
	}
	if _, db, err := openImage(t, image); err != nil {
		t.Fatalf("the whole file: %v", err)
	} else if _, err := db.Game("G0042"); err != nil {
		t.Fatalf("the whole file lost a game: %v", err)
	}
}

// pageTypes reads what each page of image is: the first page of a branch,
// leaf or free-page list, the rest of a page that spans several
// ("overflow"), or free.
func pageTypes(t *testing.T, image []byte) map[int]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "types.db")
	if err := os.WriteFile(path, image, 0o600); err != nil {
		t.Fatal(err)
	}
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	types := map[int]string{}
	err = bdb.View(func(tx *bolt.Tx) error {
		for id := 2; ; id++ {
			p, err := tx.Page(id)
			if err != nil || p == nil {
				return err
			}
			types[id] = p.Type
			if p.Type == "free" {
				continue // a free page's header is stale
			}
			for o := 1; o <= p.OverflowCount; o++ {
				types[id+o] = "overflow" // the rest of a large page: data only
			}
			id += p.OverflowCount
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return types
}

// The attack: zeroed pages started silently and failed later (history,
// export, finishing games). Zeroing any page that holds data is refused at
// start.
func TestZeroedPagesAreRefusedAtStart(t *testing.T) {
	image, ps := sampleImage(t)
	tried := 0
	for id, typ := range pageTypes(t, image) {
		if typ != "leaf" && typ != "branch" && typ != "freelist" {
			continue
		}
		bad := bytes.Clone(image)
		clear(bad[id*ps : (id+1)*ps])
		path, _, err := openImage(t, bad)
		refused(t, fmt.Sprintf("page %d (%s) zeroed", id, typ), path, err)
		tried++
	}
	if tried < 10 {
		t.Fatalf("only %d pages hold data; the sample is too small to mean anything", tried)
	}
}

// Flipped bytes anywhere: Open either refuses the file or opens it, but
// never crashes the process; and a flip in the structure of a page that
// holds data (its type) is refused. (bbolt keeps no checksums of stored
// values, so a flip inside a value is only found when the record is read,
// and its decode error names it.)
func TestFlippedBytesNeverCrashTheStart(t *testing.T) {
	image, ps := sampleImage(t)
	rng := rand.New(rand.NewPCG(15, 15))
	refusedN, opened := 0, 0
	for range 300 {
		bad := bytes.Clone(image)
		for range 1 + rng.IntN(4) {
			bad[rng.IntN(len(bad))] ^= byte(1 << rng.IntN(8))
		}
		_, db, err := openImage(t, bad)
		switch {
		case err == nil:
			opened++
			_ = db.Close()
		default: // ErrDamaged, or a value the schema check refuses
			refusedN++
		}
	}
	t.Logf("300 files with flipped bits: %d refused, %d opened (flips inside stored values are not structure)", refusedN, opened)
	for id, typ := range pageTypes(t, image) {
		if typ != "leaf" && typ != "branch" {
			continue
		}
		bad := bytes.Clone(image)
		bad[id*ps+8] ^= 0xff // the page's type flags
		path, _, err := openImage(t, bad)
		refused(t, fmt.Sprintf("page %d (%s) type flipped", id, typ), path, err)
	}
}

func TestOpenChecksTheFileAndSaysSo(t *testing.T) {
	image, _ := sampleImage(t)
	var logs syncBuffer
	path := filepath.Join(t.TempDir(), "codebreakers.db")
	if err := os.WriteFile(path, image, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	if !strings.Contains(logs.String(), `msg="database checked"`) {
		t.Errorf("no line saying the file was checked:\n%s", logs.String())
	}

	// A bound too short to read it all: the file opens, with a loud
	// warning saying how far the check got.
	logs.Reset()
	db, err = Open(path, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)), CheckTime: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	if !strings.Contains(logs.String(), "ONLY PARTLY CHECKED") {
		t.Errorf("a check cut short by its bound was not reported:\n%s", logs.String())
	}
}

func TestJunkIsRefused(t *testing.T) {
	for name, junk := range map[string][]byte{
		"text":  bytes.Repeat([]byte("not a database "), 1000),
		"zeros": make([]byte, 64<<10),
	} {
		path, _, err := openImage(t, junk)
		refused(t, name, path, err)
	}
}

// Loose modes on an existing data directory and database were kept
// silently; nobody could read every account and game. The file is made
// private, the directory warned about.
func TestLooseModesAreTightenedOrWarnedAbout(t *testing.T) {
	_, path := openTemp(t)
	path = filepath.Join(filepath.Dir(path), "loose", "codebreakers.db")
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	db, err = Open(path, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("database mode after Open: %v, %v; want 0600", info.Mode().Perm(), err)
	}
	for _, want := range []string{"DATA DIRECTORY IS OPEN TO OTHER USERS", "mode=0777", "its mode is now 0600", "was=0644"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, logs.String())
		}
	}
}

// unreadableChildEnv tells a re-executed test binary, running as an
// unprivileged user, which database it may not read.
const unreadableChildEnv = "CODEBREAKERS_STORAGE_UNREADABLE_DB"

// A database the server's user cannot read is refused, not replaced.
// Permissions do not bind root, so as root the open runs in a copy of the
// test binary that has dropped to an unprivileged user.
func TestUnreadableDatabaseIsRefused(t *testing.T) {
	if path := os.Getenv(unreadableChildEnv); path != "" {
		_, err := Open(path, quietOptions())
		if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "cannot be read") || !strings.Contains(err.Error(), path) {
			t.Fatalf("Open as uid %d: %v; want a refusal saying the file cannot be read", os.Geteuid(), err)
		}
		t.Logf("refused: %v", err)
		return
	}
	base, err := os.MkdirTemp("", "codebreakers-unreadable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	path := filepath.Join(base, "codebreakers.db")
	db, err := Open(path, quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		if err := os.Chmod(path, 0); err != nil {
			t.Fatal(err)
		}
		_, err := Open(path, quietOptions())
		if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "cannot be read") {
			t.Fatalf("Open: %v; want a refusal saying the file cannot be read", err)
		}
		return
	}
	cmd := exec.Command("/proc/self/exe", "-test.run=^TestUnreadableDatabaseIsRefused$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), unreadableChildEnv+"="+path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestUnreadableDatabaseIsRefused") {
		t.Fatalf("the open as uid %d: %v\n%s", nobody, err, out)
	}
	if info, err := os.Stat(path); err != nil || info.Size() == 0 {
		t.Errorf("the unreadable database was replaced: %v, %v", info, err)
	}
}

// syncBuffer is a log destination safe for the writer goroutine and the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *syncBuffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
}

// fiveCharIDs is a data directory's database made by the code at main
// 82209e5, before game ids grew to GameIDLen characters: a throwaway
// program claimed the handle "oldtimer" for SHA256:oldplayer and played one
// quick Break the Code game against a bot to the end, which got the
// 5-character id TMU5S.
const (
	fiveCharIDs    = "testdata/five-char-ids.db"
	fiveCharGameID = "TMU5S"
)

// dataDirWith copies src to a fresh data directory and returns the new path.
func dataDirWith(t *testing.T, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "data", "codebreakers.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Ids given out before they grew keep working.
func TestGameIDsGivenOutBeforeKeepWorking(t *testing.T) {
	db, err := Open(dataDirWith(t, fiveCharIDs), quietOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g, err := db.Game(fiveCharGameID)
	if err != nil {
		t.Fatalf("the old id: %v", err)
	}
	if g.ID != fiveCharGameID || len(g.Record.Moves) == 0 {
		t.Fatalf("old game %q with %d moves", g.ID, len(g.Record.Moves))
	}
	hist, err := db.History("SHA256:oldplayer", 10)
	if err != nil || len(hist) != 1 || hist[0].ID != fiveCharGameID {
		t.Fatalf("history of the old account: %+v, %v", hist, err)
	}
	id, err := db.NewGameID()
	if err != nil || len(id) != GameIDLen {
		t.Fatalf("a new id in the old file: %q, %v", id, err)
	}
}
