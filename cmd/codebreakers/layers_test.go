package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// modulePath is the module path every project import starts with.
const modulePath = "github.com/codebreakers/codebreakers/"

// layers is the order of the module's layers, lowest first: the one place
// it is written down. A package may import packages of its own layer and of
// the layers below it, never of a layer above. Directories named in the
// same layer are siblings that do not import each other (server and tui
// meet only in cmd). A package's layer is its top directory's.
var layers = [][]string{
	{"engine"},        // pure rules: no I/O, clocks or goroutines
	{"storage"},       // accounts, history, live logs
	{"lobby"},         // the hub and its table actors
	{"server", "tui"}, // SSH and the screens: siblings
	{"cmd", "deploy"}, // the binary and its deployment checks
}

// gameDirs are kept apart: a game's packages (its rules, engine/<game>, and its
// board, tui/<game>) import nothing of another game's, so no board speaks
// another game's words.
var gameDirs = []string{"breakcode", "coding", "ifthen", "whattherule"}

// leaves import nothing of the project, so every layer may use them.
var leaves = []string{"engine/textsafe", "engine/words", "engine/rating"}

// boardContract is the seam between the session and the game boards: it
// imports no other package of tui, so a board's contract never depends on
// how boards or screens are drawn. boardToolkit is what boards draw with:
// it imports neither the session nor a board.
const boardContract, boardToolkit = "tui/board", "tui/widget"

// TestImportsRunDownward reads every Go file of the module, its tests too,
// and fails on an import that runs upward across the layers, between
// packages kept apart, or out of a leaf.
func TestImportsRunDownward(t *testing.T) {
	root := modulePathRoot(t)
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		from := filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil || !strings.HasPrefix(imp, modulePath) {
				continue
			}
			checked++
			if why := importRule(from, strings.TrimPrefix(imp, modulePath)); why != "" {
				t.Errorf("%s imports %s: %s", filepath.ToSlash(mustRel(t, root, path)), imp, why)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d project imports read under %s: the walk missed the module", checked, root)
	}
}

// importRule says why package from may not import package to, or "".
func importRule(from, to string) string {
	if from == to {
		return ""
	}
	for _, l := range leaves {
		if within(from, l) {
			return l + " is a leaf and imports nothing of the project"
		}
	}
	if from == boardContract && within(to, "tui") {
		return boardContract + " is the board contract and imports nothing of tui"
	}
	if within(from, boardToolkit) && (to == "tui" || gameOf(to) != "") {
		return boardToolkit + " is the boards' toolkit and imports neither the session nor a board"
	}
	if a, b := gameOf(from), gameOf(to); a != "" && b != "" && a != b {
		return "the gameDirs " + a + " and " + b + " are kept apart"
	}
	fl, fi := layerOf(from)
	tl, ti := layerOf(to)
	switch {
	case fl < 0 || tl < 0:
		return "a package outside every layer (add its directory to layers)"
	case tl > fl:
		return "it runs upward, from the " + layers[fl][fi] + " layer to " + layers[tl][ti]
	case tl == fl && ti != fi:
		return layers[fl][fi] + " and " + layers[tl][ti] + " are siblings and do not import each other"
	}
	return ""
}

// layerOf finds the layer of a package path and its directory's place in it.
func layerOf(pkg string) (layer, index int) {
	top, _, _ := strings.Cut(pkg, "/")
	for l, dirs := range layers {
		if i := slices.Index(dirs, top); i >= 0 {
			return l, i
		}
	}
	return -1, -1
}

// gameOf names the game whose rules or board pkg is, or "".
func gameOf(pkg string) string {
	for _, g := range gameDirs {
		if within(pkg, "engine/"+g) || within(pkg, "tui/"+g) {
			return g
		}
	}
	return ""
}

// within reports whether pkg is dir or below it.
func within(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

func TestImportRule(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"lobby", "engine/breakcode", true},
		{"tui/coding", "tui/board", true},
		{"tui/coding", "tui/widget", true},
		{"tui/widget", "tui/board", true},
		{"tui/board/boardtest", "tui/board", true},
		{"tui/board", "tui/widget", false},
		{"tui/board", "tui", false},
		{"tui/widget", "tui/ifthen", false},
		{"tui/widget", "tui", false},
		{"cmd/codebreakers", "server", true},
		{"engine/whattherule", "lobby", false},
		{"storage", "lobby", false},
		{"lobby/natsdir", "tui", false},
		{"server", "tui", false},
		{"tui/ifthen", "engine/whattherule", false},
		{"engine/textsafe", "engine", false},
		{"nowhere", "engine", false},
	} {
		if why := importRule(c.from, c.to); (why == "") != c.ok {
			t.Errorf("%s → %s: %q, want allowed %v", c.from, c.to, why, c.ok)
		}
	}
}

// modulePathRoot is the directory holding go.mod, above the test's own.
func modulePathRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

func mustRel(t *testing.T, root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}
