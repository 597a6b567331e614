package loadtest

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	xtrace "golang.org/x/exp/trace"
)

// TestEchoTraceWritesBothTracesAndTheEchoes: -echo-trace asks the
// server's pprof listener for a trace about as long as the echoes and
// saves it, records the generator's own trace (a trace Go can read back)
// and writes one line per echo.
func TestEchoTraceWritesBothTracesAndTheEchoes(t *testing.T) {
	var asked string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.URL.String()
		_, _ = io.WriteString(w, "the server's trace")
	}))
	defer srv.Close()
	prefix := filepath.Join(t.TempDir(), "echo")
	errs := &errorLog{}
	tg := &target{name: "server", pprofAddr: strings.TrimPrefix(srv.URL, "http://")}
	stop := startEchoTrace(t.Context(), Config{EchoTrace: prefix, EchoSamples: 200, Log: io.Discard}, tg, errs)
	stop([]string{"1 2", "3 4"})
	if n, first := errs.count(); n != 0 {
		t.Fatalf("%d errors: %v", n, first)
	}
	if asked != "/debug/pprof/trace?seconds=9" {
		t.Errorf("asked the server for %q, want a trace of 9 s (200 echoes 25 ms apart, and 4 s)", asked)
	}
	if b, err := os.ReadFile(prefix + ".server"); err != nil || string(b) != "the server's trace" {
		t.Errorf("server trace file: %q, %v", b, err)
	}
	if b, err := os.ReadFile(prefix + ".echoes"); err != nil || string(b) != "1 2\n3 4\n" {
		t.Errorf("echoes file: %q, %v", b, err)
	}
	b, err := os.ReadFile(prefix + ".generator")
	if err != nil {
		t.Fatal(err)
	}
	r, err := xtrace.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the generator's trace does not read back: %v", err)
	}
	events := 0
	for {
		_, err := r.ReadEvent()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the generator's trace does not read back: %v", err)
		}
		events++
	}
	if events == 0 {
		t.Error("the generator's trace holds no events")
	}

	// Without a pprof listener there is nothing to trace: an error says so.
	errs = &errorLog{}
	startEchoTrace(t.Context(), Config{EchoTrace: prefix, Log: io.Discard}, &target{name: "server"}, errs)(nil)
	if n, _ := errs.count(); n == 0 {
		t.Error("no error for a server without a pprof listener")
	}
}
