package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readme returns the project README, which these tests hold to the program.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// helpFlags are the flags `codebreakers --help` lists, without dashes.
func helpFlags(t *testing.T) []string {
	t.Helper()
	var out bytes.Buffer
	if _, err := parseServe([]string{"--help"}, env(nil), &out); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("--help: err = %v, want flag.ErrHelp", err)
	}
	var names []string
	for m := range strings.Lines(out.String()) {
		if f, ok := strings.CutPrefix(m, "  -"); ok {
			names = append(names, strings.Fields(f)[0])
		}
	}
	if len(names) == 0 {
		t.Fatalf("--help lists no flags:\n%s", out.String())
	}
	return names
}

// readmeFlags are the flags named in the first column of the README's flag
// table (a row may name several: "| `-log-format`, `-log-level` |").
func readmeFlags(t *testing.T, text string) []string {
	t.Helper()
	_, table, ok := strings.Cut(text, "| flag | default | what |")
	if !ok {
		t.Fatal("README has no flag table (| flag | default | what |)")
	}
	name := regexp.MustCompile("`-([a-z0-9-]+)`")
	var names []string
	for line := range strings.Lines(table) {
		if !strings.HasPrefix(line, "|") {
			if len(names) > 0 {
				break // the table ended
			}
			continue
		}
		first := strings.Split(line, "|")[1]
		for _, m := range name.FindAllStringSubmatch(first, -1) {
			names = append(names, m[1])
		}
	}
	return names
}

// TestREADMEFlagTableMatchesHelp holds the README's flag table to --help:
// every flag the program lists has a row, and no row names a flag that does
// not exist.
func TestREADMEFlagTableMatchesHelp(t *testing.T) {
	help, doc := helpFlags(t), readmeFlags(t, readme(t))
	for _, f := range help {
		if !slices.Contains(doc, f) {
			t.Errorf("--help lists -%s but the README's flag table does not", f)
		}
	}
	for _, f := range doc {
		if !slices.Contains(help, f) {
			t.Errorf("the README's flag table lists -%s, which --help does not know", f)
		}
	}
}

// TestREADMEListsServedGames holds the README's games table to the games
// the arcade serves: each has a row with its player counts, and no row says
// a served game is not served.
func TestREADMEListsServedGames(t *testing.T) {
	text := readme(t)
	for _, g := range games().Games() {
		info := g.Info()
		row := fmt.Sprintf("| **%s** | %d–%d |", info.Name, info.MinPlayers, info.MaxPlayers)
		i := strings.Index(text, row)
		if i < 0 {
			t.Errorf("README's games table has no row %q", row)
			continue
		}
		line, _, _ := strings.Cut(text[i:], "\n")
		if strings.Contains(line, "not serve") || strings.Contains(line, "in progress") {
			t.Errorf("README says a served game is not served: %s", line)
		}
	}
}
