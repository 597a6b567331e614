package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// errBanned is what a banned address or key is told before the connection
// closes.
var errBanned = errors.New("You are banned from this server. If you think this is a mistake, contact its operator.")

// banCheckEvery is how often the ban file's modification time is looked at.
// Edits take effect within this long, without a signal.
const banCheckEvery = 2 * time.Second

// BanList is the operator's moderation file: banned key fingerprints,
// banned addresses and networks, and keys muted in chat. One entry per line:
//
//	# comments and blank lines are ignored; so is text after " #"
//	SHA256:Xb3...        ban this key
//	203.0.113.7          ban this address
//	198.51.100.0/24      ban this network
//	mute SHA256:Xb3...   this key may play but not chat
//
// A "ban " prefix is accepted too. The file is read again when it changes
// (checked every couple of seconds as connections arrive) or on Reload (the
// server calls it on SIGHUP). A file that fails to parse leaves the previous
// list in force. The nil *BanList bans and mutes nobody.
type BanList struct {
	path string
	log  *slog.Logger
	list atomic.Pointer[banEntries]
	gen  atomic.Uint64 // counts successful loads

	mu      sync.Mutex // guards the fields below and serialises reloads
	checked time.Time
	modTime time.Time
	size    int64
}

type banEntries struct {
	keys  map[string]bool
	mutes map[string]bool
	nets  []netip.Prefix
}

// LoadBanList reads the ban file at path. A missing or malformed file is an
// error: the operator asked for it, so silence would hide a typo.
func LoadBanList(path string, log *slog.Logger) (*BanList, error) {
	if log == nil {
		log = slog.Default()
	}
	b := &BanList{path: path, log: log}
	if err := b.Reload(); err != nil {
		return nil, err
	}
	return b, nil
}

// Reload reads the file again. On error the previous list stays in force.
func (b *BanList) Reload() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reloadLocked()
}

func (b *BanList) reloadLocked() error {
	b.checked = time.Now()
	info, err := os.Stat(b.path)
	if err != nil {
		return fmt.Errorf("ban list: %w", err)
	}
	data, err := os.ReadFile(b.path)
	if err != nil {
		return fmt.Errorf("ban list: %w", err)
	}
	entries, err := parseBanList(data)
	if err != nil {
		return fmt.Errorf("ban list %s: %w", b.path, err)
	}
	b.modTime, b.size = info.ModTime(), info.Size()
	b.list.Store(entries)
	b.gen.Add(1)
	b.log.Info("ban list loaded", "path", b.path, "keys", len(entries.keys), "networks", len(entries.nets), "mutes", len(entries.mutes))
	return nil
}

// entries returns the current list, first reloading it if the file changed
// since it was last looked at (at most every banCheckEvery).
func (b *BanList) entries() *banEntries {
	if b.mu.TryLock() {
		if time.Since(b.checked) >= banCheckEvery {
			b.checked = time.Now()
			if info, err := os.Stat(b.path); err == nil && (!info.ModTime().Equal(b.modTime) || info.Size() != b.size) {
				if err := b.reloadLocked(); err != nil {
					b.log.Error("ban list not reloaded; the previous one stays in force", "err", err)
				}
			}
		}
		b.mu.Unlock()
	}
	return b.list.Load()
}

// Generation changes each time a new list is loaded (zero for nil). It
// first gives the file a chance to be reread.
func (b *BanList) Generation() uint64 {
	if b == nil {
		return 0
	}
	b.entries()
	return b.gen.Load()
}

// BannedAddr reports whether the address (an IP, as the limiter keys it) is
// banned.
func (b *BanList) BannedAddr(ip string) bool {
	if b == nil {
		return false
	}
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	addr = addr.Unmap()
	for _, n := range b.entries().nets {
		if n.Contains(addr) {
			return true
		}
	}
	return false
}

// BannedKey reports whether the account (a key fingerprint "SHA256:...") is
// banned. Guests are never banned by key.
func (b *BanList) BannedKey(account string) bool {
	return b != nil && b.entries().keys[account]
}

// Muted reports whether the account may not chat. A banned key is muted
// too.
func (b *BanList) Muted(account string) bool {
	if b == nil {
		return false
	}
	e := b.entries()
	return e.mutes[account] || e.keys[account]
}

// parseBanList parses the file format described on BanList.
func parseBanList(data []byte) (*banEntries, error) {
	e := &banEntries{keys: make(map[string]bool), mutes: make(map[string]bool)}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		verb := "ban"
		if len(fields) == 2 && (fields[0] == "ban" || fields[0] == "mute") {
			verb, fields = fields[0], fields[1:]
		}
		if len(fields) != 1 {
			return nil, fmt.Errorf("line %d: want one key fingerprint, address or network per line, optionally after \"ban\" or \"mute\"", n)
		}
		entry := fields[0]
		switch {
		case strings.HasPrefix(entry, "SHA256:") && len(entry) > len("SHA256:"):
			if verb == "mute" {
				e.mutes[entry] = true
			} else {
				e.keys[entry] = true
			}
		case verb == "mute":
			return nil, fmt.Errorf("line %d: only keys (SHA256:...) can be muted", n)
		default:
			prefix, err := parseNetwork(entry)
			if err != nil {
				return nil, fmt.Errorf("line %d: %q is not a key fingerprint (SHA256:...), an address or a network", n, entry)
			}
			e.nets = append(e.nets, prefix)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	return e, nil
}

func parseNetwork(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("parse network: %w", err)
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), max(0, p.Bits()-96))
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("parse address: %w", err)
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}
