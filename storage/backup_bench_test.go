package storage

import (
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/codebreakers/codebreakers/engine"
)

// BenchmarkBackup copies a database of 2,000 finished 40-move games while
// it stays open; bytes/s is the online backup rate.
func BenchmarkBackup(b *testing.B) {
	db, _ := openTemp(b)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := range 2000 {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			g := sampleLive(fmt.Sprintf("B%05d", i))
			for m := range 40 {
				g.Record.Moves = append(g.Record.Moves, move(m%3, fmt.Sprintf(`{"ask":%d}`, m)))
			}
			if err := db.FinishGame(finish(g, engine.Result{Draw: true, Summary: "tie"}, time.Time{})); err != nil {
				b.Error(err)
			}
		})
	}
	wg.Wait()
	n, err := db.Backup(io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(n)
	b.ResetTimer()
	for b.Loop() {
		if _, err := db.Backup(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEachFinishedGame walks 2,000 finished games (the export path,
// without JSON encoding).
func BenchmarkEachFinishedGame(b *testing.B) {
	db, _ := openTemp(b)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := range 2000 {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			g := sampleLive(fmt.Sprintf("E%05d", i))
			g.Record.Moves = []engine.Move{move(0, `{"ask":1}`)}
			if err := db.FinishGame(finish(g, engine.Result{Draw: true}, time.Time{})); err != nil {
				b.Error(err)
			}
		})
	}
	wg.Wait()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		if err := db.EachFinishedGame(func(FinishedGame) error { n++; return nil }); err != nil || n != 2000 {
			b.Fatalf("walked %d: %v", n, err)
		}
	}
}
