package deploy

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// unit is a parsed systemd unit: section → key → values (keys may repeat).
type unit map[string]map[string][]string

func parseUnit(t *testing.T, path string) unit {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	u := unit{}
	section := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = line[1 : len(line)-1]
			if u[section] == nil {
				u[section] = map[string][]string{}
			}
		default:
			key, value, ok := strings.Cut(line, "=")
			if !ok || section == "" || strings.HasSuffix(line, `\`) {
				t.Fatalf("%s:%d: not a key=value line in a section: %q", path, n, line)
			}
			key = strings.TrimSpace(key)
			u[section][key] = append(u[section][key], strings.TrimSpace(value))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return u
}

func (u unit) last(section, key string) string {
	v := u[section][key]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

func TestSystemdUnit(t *testing.T) {
	const path = "codebreakers.service"
	u := parseUnit(t, path)
	want := map[string]map[string]string{
		"Service": {
			"Type":                   "simple",
			"User":                   "codebreakers",
			"StateDirectory":         "codebreakers",
			"StateDirectoryMode":     "0700",
			"Restart":                "on-failure",
			"KillSignal":             "SIGTERM",
			"NoNewPrivileges":        "yes",
			"ProtectSystem":          "strict",
			"ProtectHome":            "yes",
			"PrivateTmp":             "yes",
			"PrivateDevices":         "yes",
			"CapabilityBoundingSet":  "CAP_NET_BIND_SERVICE",
			"MemoryDenyWriteExecute": "yes",
			"UMask":                  "0077",
		},
		"Install": {"WantedBy": "multi-user.target"},
	}
	for section, keys := range want {
		for key, value := range keys {
			if got := u.last(section, key); got != value {
				t.Errorf("[%s] %s = %q, want %q", section, key, got, value)
			}
		}
	}
	for _, key := range []string{"MemoryMax", "TasksMax", "LimitNOFILE", "RestartSec", "TimeoutStopSec", "SystemCallFilter", "RestrictAddressFamilies"} {
		if u.last("Service", key) == "" {
			t.Errorf("[Service] %s is missing (resource limits and sandboxing are required)", key)
		}
	}
	if exec := u.last("Service", "ExecStart"); !regexp.MustCompile(`^/\S+/codebreakers serve\b`).MatchString(exec) {
		t.Errorf("ExecStart = %q, want an absolute path running `codebreakers serve`", exec)
	}
	if u.last("Unit", "StartLimitBurst") == "" {
		t.Error("[Unit] StartLimitBurst is missing: a broken config would restart forever")
	}

	// systemd must wait longer than the server's own shutdown timeout,
	// or players' last moves race a SIGKILL.
	env := map[string]string{}
	for _, e := range u["Service"]["Environment"] {
		k, v, _ := strings.Cut(e, "=")
		env[k] = v
	}
	shutdown, err := time.ParseDuration(env["CODEBREAKERS_SHUTDOWN_TIMEOUT"])
	if err != nil {
		t.Fatalf("CODEBREAKERS_SHUTDOWN_TIMEOUT: %v", err)
	}
	stop, err := time.ParseDuration(u.last("Service", "TimeoutStopSec"))
	if err != nil {
		t.Fatalf("TimeoutStopSec: %v", err)
	}
	if stop <= shutdown {
		t.Errorf("TimeoutStopSec %v must exceed the server's shutdown timeout %v", stop, shutdown)
	}
	if env["CODEBREAKERS_DATA_DIR"] != "/var/lib/"+u.last("Service", "StateDirectory") {
		t.Errorf("data dir %q is not the state directory", env["CODEBREAKERS_DATA_DIR"])
	}
	if env["GODEBUG"] != deployGODEBUG(t) {
		t.Errorf("GODEBUG = %q, want %q: the load test measures the server with the deploy's runtime settings", env["GODEBUG"], deployGODEBUG(t))
	}
	if addr := env["CODEBREAKERS_METRICS_ADDR"]; addr != "" && !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Errorf("metrics on %q: keep them on loopback by default", addr)
	}
	checkKnownSettings(t, path, env)
}

// TestSystemdAnalyzeVerify runs systemd's own checks when the tools exist.
func TestSystemdAnalyzeVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed")
	}
	raw, err := os.ReadFile("codebreakers.service")
	if err != nil {
		t.Fatal(err)
	}
	// verify insists the binary exists; point it at one that does.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	unitPath := filepath.Join(t.TempDir(), "codebreakers.service")
	text := strings.Replace(string(raw), "ExecStart=/usr/local/bin/codebreakers", "ExecStart="+self, 1)
	if err := os.WriteFile(unitPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(analyze, "verify", unitPath).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	// The sandbox must stay tight: systemd scores exposure from 0 (locked
	// down) to 10; --threshold counts tenths, so 30 fails above 3.0.
	out, err := exec.Command(analyze, "security", "--offline=true", "--threshold=30", unitPath).CombinedOutput()
	if err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		t.Errorf("systemd-analyze security: %v; %s", err, lines[len(lines)-1])
	}
}

// instruction is one Containerfile instruction with its arguments.
type instruction struct {
	cmd  string
	args string
	line int
}

func parseContainerfile(t *testing.T, path string) []instruction {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []instruction
	var cur strings.Builder
	start := 0
	for i, line := range strings.Split(string(raw), "\n") {
		trimmed := strings.TrimSpace(line)
		if cur.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if cur.Len() == 0 {
			start = i + 1
		}
		if strings.HasSuffix(trimmed, `\`) {
			cur.WriteString(strings.TrimSuffix(trimmed, `\`) + " ")
			continue
		}
		cur.WriteString(trimmed)
		cmd, args, _ := strings.Cut(cur.String(), " ")
		if !regexp.MustCompile(`^[A-Z]+$`).MatchString(cmd) {
			t.Fatalf("%s:%d: %q is not an instruction", path, start, cmd)
		}
		out = append(out, instruction{cmd: cmd, args: strings.TrimSpace(args), line: start})
		cur.Reset()
	}
	if cur.Len() > 0 {
		t.Fatalf("%s: ends inside a continued line", path)
	}
	return out
}

func TestContainerfile(t *testing.T) {
	const path = "Containerfile"
	ins := parseContainerfile(t, path)
	known := []string{"FROM", "WORKDIR", "COPY", "RUN", "USER", "ENV", "VOLUME", "EXPOSE", "STOPSIGNAL", "ENTRYPOINT", "CMD", "ARG", "LABEL", "HEALTHCHECK"}
	var froms []instruction
	final := map[string][]string{} // instructions of the last stage
	for _, in := range ins {
		if !slices.Contains(known, in.cmd) {
			t.Errorf("line %d: unknown instruction %s", in.line, in.cmd)
		}
		if in.cmd == "FROM" {
			froms = append(froms, in)
			final = map[string][]string{}
		}
		final[in.cmd] = append(final[in.cmd], in.args)
	}
	if len(froms) < 2 {
		t.Fatalf("want a multi-stage build, got %d FROM lines", len(froms))
	}
	builder := froms[0].args
	m := regexp.MustCompile(`^golang:(\d+\.\d+)\S* AS (\w+)$`).FindStringSubmatch(builder)
	if m == nil {
		t.Fatalf("first stage %q: want FROM golang:X.Y AS name", builder)
	}
	if goVersion := goModVersion(t); !strings.HasPrefix(goVersion, m[1]) {
		t.Errorf("builder Go %s does not match go.mod's go %s", m[1], goVersion)
	}
	if base := froms[len(froms)-1].args; base != "scratch" && !strings.HasPrefix(base, "gcr.io/distroless/static") {
		t.Errorf("final stage is %q: want scratch or distroless/static for a small static image", base)
	}
	var built bool
	for _, in := range ins {
		if in.cmd == "RUN" && strings.Contains(in.args, "CGO_ENABLED=0") && strings.Contains(in.args, "./cmd/codebreakers") {
			built = true
		}
	}
	if !built {
		t.Error("no RUN builds ./cmd/codebreakers with CGO_ENABLED=0 (the binary must be static)")
	}
	if !slices.ContainsFunc(final["COPY"], func(a string) bool { return strings.Contains(a, "--from="+m[2]) }) {
		t.Errorf("final stage does not copy from the %s stage", m[2])
	}
	if users := final["USER"]; len(users) == 0 || users[len(users)-1] == "root" || strings.HasPrefix(users[len(users)-1], "0") {
		t.Errorf("final stage USER %v: must run as an unprivileged user", users)
	}
	for _, cmd := range []string{"ENTRYPOINT", "CMD"} {
		v := final[cmd]
		var argv []string
		if len(v) == 0 || json.Unmarshal([]byte(v[len(v)-1]), &argv) != nil {
			t.Errorf("%s must be in exec (JSON) form so SIGTERM reaches the server: %v", cmd, v)
		}
	}
	for cmd, want := range map[string]string{"EXPOSE": "2222", "STOPSIGNAL": "SIGTERM", "VOLUME": `["/data"]`} {
		if !slices.Contains(final[cmd], want) {
			t.Errorf("final stage %s %v, want %s", cmd, final[cmd], want)
		}
	}
	env := map[string]string{}
	for _, e := range final["ENV"] {
		for _, kv := range strings.Fields(e) {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
	}
	if env["CODEBREAKERS_DATA_DIR"] != "/data" {
		t.Errorf("CODEBREAKERS_DATA_DIR = %q, want the volume /data", env["CODEBREAKERS_DATA_DIR"])
	}
	if env["GODEBUG"] != deployGODEBUG(t) {
		t.Errorf("GODEBUG = %q, want %q: the load test measures the server with the deploy's runtime settings", env["GODEBUG"], deployGODEBUG(t))
	}
	checkKnownSettings(t, path, env)
}

func TestContainerIgnoreKeepsSourcesAndDropsState(t *testing.T) {
	raw, err := os.ReadFile("Containerfile.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, line := range strings.Split(string(raw), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, line)
		}
	}
	for _, want := range []string{".git", "*.db", "**/data"} {
		if !slices.Contains(patterns, want) {
			t.Errorf("build context should leave out %s", want)
		}
	}
	for _, p := range patterns {
		if p == "*.go" || p == "go.mod" || p == "go.sum" || p == "cmd" || p == "*" {
			t.Errorf("%q would leave sources out of the build", p)
		}
	}
}

// goModVersion reads the go directive of the module.
func goModVersion(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(raw)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	return string(m[1])
}

// checkKnownSettings makes sure every CODEBREAKERS_* variable a deploy file
// sets is one the binary reads, so a renamed flag cannot silently stop
// applying.
// deployGODEBUG is the GODEBUG the load generator starts its server with
// (loadtest.DeployGODEBUG, read from its source: deploy and cmd do not
// import each other), which the unit and the image must set too so that a
// load test measures the server as it is deployed.
func deployGODEBUG(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../cmd/codebreakers/loadtest/proc.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^const DeployGODEBUG = "([^"]*)"$`).FindSubmatch(raw)
	if m == nil {
		t.Fatal("cmd/codebreakers/loadtest/proc.go: no const DeployGODEBUG = \"…\"")
	}
	return string(m[1])
}

func checkKnownSettings(t *testing.T, file string, env map[string]string) {
	t.Helper()
	var source strings.Builder
	for _, f := range []string{"../cmd/codebreakers/serve.go", "../cmd/codebreakers/backup.go"} {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		source.Write(raw)
	}
	for k := range env {
		if strings.HasPrefix(k, "CODEBREAKERS_") && !strings.Contains(source.String(), `"`+k+`"`) {
			t.Errorf("%s sets %s, which the binary does not read", file, k)
		}
	}
}

// TestClusterExample checks the two-node example says what RUNBOOK.md
// section 9 says: every setting it uses is one the binary reads, each node
// has its own name, node link and host key, every node trusts the same
// peers file, the nodes believe PROXY headers from the balancer alone, and
// the balancer checks both nodes' health and sends PROXY headers to both.
func TestClusterExample(t *testing.T) {
	raw, err := os.ReadFile("cluster/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	compose := string(raw)
	env := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^\s+(CODEBREAKERS_[A-Z0-9_]+):\s*(.*)$`).FindAllStringSubmatch(compose, -1) {
		env[m[1]] = strings.TrimSpace(m[2])
	}
	checkKnownSettings(t, "cluster/compose.yaml", env)
	for _, k := range []string{"CODEBREAKERS_POSTGRES", "CODEBREAKERS_NATS", "CODEBREAKERS_PEER_KEYS", "CODEBREAKERS_METRICS_ADDR",
		"CODEBREAKERS_PROXY_PROTOCOL_FROM", "CODEBREAKERS_NODE_NAME", "CODEBREAKERS_NODE_ADDR", "CODEBREAKERS_HOST_KEY"} {
		if env[k] == "" {
			t.Errorf("cluster/compose.yaml does not set %s", k)
		}
	}
	for _, k := range []string{"CODEBREAKERS_NODE_NAME", "CODEBREAKERS_NODE_ADDR", "CODEBREAKERS_HOST_KEY"} {
		if n := len(regexp.MustCompile(`(?m)^\s+`+k+`:`).FindAllString(compose, -1)); n != 2 {
			t.Errorf("%s is set %d times, want once per node", k, n)
		}
	}
	balancer := regexp.MustCompile(`(?s)haproxy:.*?ipv4_address:\s*([0-9.]+)`).FindStringSubmatch(compose)
	if balancer == nil || env["CODEBREAKERS_PROXY_PROTOCOL_FROM"] != balancer[1] {
		t.Errorf("the nodes believe PROXY headers from %q, but the balancer is %v", env["CODEBREAKERS_PROXY_PROTOCOL_FROM"], balancer)
	}
	cfg, err := os.ReadFile("cluster/haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	servers := regexp.MustCompile(`(?m)^\s+server (\S+) (\S+):2222 send-proxy-v2 check port 9222`).FindAllStringSubmatch(string(cfg), -1)
	if len(servers) != 2 {
		t.Fatalf("haproxy.cfg: %d health-checked PROXY servers, want 2", len(servers))
	}
	for _, s := range servers {
		if !strings.Contains(compose, "ipv4_address: "+s[2]) {
			t.Errorf("haproxy sends %s to %s, which no service has", s[1], s[2])
		}
	}
	if !strings.Contains(string(cfg), "option httpchk GET /healthz") {
		t.Error("haproxy.cfg does not check /healthz")
	}
}
