package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"
)

// ErrDamaged means the database file exists but is empty, unreadable,
// truncated or inconsistent. The server refuses to start on it rather than
// start empty or fail later: see the RUNBOOK's restore section.
var ErrDamaged = errors.New("database file is damaged")

// RestoreHint is where an operator is sent when the database is damaged.
const RestoreHint = `restore the last good backup (deploy/RUNBOOK.md, section 6 "Restore"), or move the file away to start with an empty database`

// damagedError names the damaged file and what is wrong; it matches
// ErrDamaged.
type damagedError struct {
	path, what, hint string
}

func (e *damagedError) Error() string {
	hint := e.hint
	if hint == "" {
		hint = RestoreHint
	}
	return fmt.Sprintf("%s %s, so the server will not start on it: %s", e.path, e.what, hint)
}

func (e *damagedError) Is(target error) bool { return target == ErrDamaged }

func damaged(path, format string, args ...any) error {
	return &damagedError{path: path, what: fmt.Sprintf(format, args...)}
}

// DefaultCheckTime bounds the consistency check at Open. The check reads
// 400–620 MB a second here from the page cache (BenchmarkCheckFile in
// BENCHMARKS.md: a 120 MB file of 20,000 finished games in 0.19–0.26 s),
// and a disk read from cold is a few times slower, so 30 s covers files of
// several gigabytes, a hundred times an arcade's busy year, while a restart
// stays well inside systemd's default start timeout (90 s). Past the bound
// the server starts anyway, warning that the file was only partly checked:
// refusing would turn a large healthy database into an outage.
const DefaultCheckTime = 30 * time.Second

// bbolt's on-disk format (go.etcd.io/bbolt/internal/common), read here
// without mapping the file, so that a damaged file is refused before bbolt
// maps it: reading a page past the end of a mapped file is a SIGBUS, which
// no recover catches.
const (
	boltMagic       = 0xED0CDAED
	boltVersion     = 2
	pageHeaderSize  = 16 // id u64, flags u16, count u16, overflow u32
	metaSize        = 64 // magic, version, page size, flags, root (2×u64), freelist, pgid, txid, checksum
	metaSumEnd      = 56 // the checksum covers the meta up to itself
	freelistFlag    = 0x10
	noFreelist      = ^uint64(0)
	freelistCountFF = 0xFFFF // count overflows into the first element
)

// boltMeta is the part of a bbolt meta page that says how big the file
// must be.
type boltMeta struct {
	pageSize                   uint64
	root, freelist, pgid, txid uint64
}

// readMeta decodes the meta page at buf (page header first). ok is false
// when the page is not a valid meta page (wrong magic, version or checksum).
func readMeta(buf []byte) (m boltMeta, ok bool) {
	if len(buf) < pageHeaderSize+metaSize {
		return m, false
	}
	b := buf[pageHeaderSize : pageHeaderSize+metaSize]
	le := binary.NativeEndian // bbolt writes its structs in the machine's order
	if le.Uint32(b[0:]) != boltMagic || le.Uint32(b[4:]) != boltVersion {
		return m, false
	}
	h := fnv.New64a()
	_, _ = h.Write(b[:metaSumEnd])
	if h.Sum64() != le.Uint64(b[metaSumEnd:]) {
		return m, false
	}
	return boltMeta{
		pageSize: uint64(le.Uint32(b[8:])),
		root:     le.Uint64(b[16:]),
		freelist: le.Uint64(b[32:]),
		pgid:     le.Uint64(b[40:]),
		txid:     le.Uint64(b[48:]),
	}, true
}

// precheck looks at the file before bbolt maps it. It reports whether the
// file is new (missing: Open creates it), and refuses a file that exists
// but is empty, unreadable, not a database, or shorter than its own header
// says, with an error matching ErrDamaged.
func precheck(path string) (fresh bool, err error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, nil
	case err != nil:
		return false, damaged(path, "cannot be looked at (%v)", err)
	case !info.Mode().IsRegular():
		return false, damaged(path, "is not a regular file (%s)", info.Mode().Type())
	case info.Size() == 0:
		// bbolt would silently write a fresh database over it: every
		// account, handle and game gone, and handles free to claim.
		return false, damaged(path, "exists but is empty (0 bytes)")
	}
	f, err := os.Open(path)
	if err != nil {
		return false, &damagedError{path: path, what: fmt.Sprintf("cannot be read (%v)", err),
			hint: "give the server's user access to it (mode 0600, owned by that user); if it is lost, " + RestoreHint}
	}
	defer f.Close()
	size := info.Size()
	meta, err := currentMeta(f, size)
	if err != nil {
		return false, damaged(path, "%v", err)
	}
	ps := meta.pageSize
	need := meta.pgid * ps
	switch {
	case ps < 512 || ps > 1<<24 || meta.pgid < 2 || need/ps != meta.pgid:
		return false, damaged(path, "has a header that makes no sense (page size %d, %d pages)", ps, meta.pgid)
	case uint64(size) < need:
		return false, damaged(path, "is truncated: it is %d bytes but its last commit needs %d", size, need)
	case meta.root < 2 || meta.root >= meta.pgid:
		return false, damaged(path, "has its root page %d outside the file's %d pages", meta.root, meta.pgid)
	}
	if meta.freelist != noFreelist {
		if err := checkFreelistPage(f, meta); err != nil {
			return false, damaged(path, "%v", err)
		}
	}
	return false, nil
}

// currentMeta finds the meta page bbolt will use: of the two, the valid one
// with the higher transaction id. Page 0 gives the page size; failing that,
// page 1 is looked for at every size bbolt may have used.
func currentMeta(f io.ReaderAt, size int64) (boltMeta, error) {
	buf := make([]byte, pageHeaderSize+metaSize)
	read := func(off int64) (boltMeta, bool) {
		if n, err := f.ReadAt(buf, off); n != len(buf) && err != nil {
			return boltMeta{}, false
		}
		return readMeta(buf)
	}
	m0, ok0 := read(0)
	var m1 boltMeta
	ok1 := false
	if ok0 {
		m1, ok1 = read(int64(m0.pageSize))
	} else {
		for i := 0; i <= 14 && !ok1; i++ {
			if off := int64(1024) << i; off < size {
				m1, ok1 = read(off)
			}
		}
	}
	switch {
	case ok0 && ok1 && m1.txid > m0.txid, !ok0 && ok1:
		return m1, nil
	case ok0:
		return m0, nil
	}
	return boltMeta{}, errors.New("is not a bbolt database, or both of its header pages are damaged")
}

// checkFreelistPage checks that the freelist page, which bbolt reads while
// opening, is a freelist and lies wholly inside the file.
func checkFreelistPage(f io.ReaderAt, m boltMeta) error {
	if m.freelist < 2 || m.freelist >= m.pgid {
		return fmt.Errorf("has its free-page list at page %d, outside the file's %d pages", m.freelist, m.pgid)
	}
	hdr := make([]byte, pageHeaderSize+8)
	if _, err := f.ReadAt(hdr, int64(m.freelist*m.pageSize)); err != nil {
		return fmt.Errorf("cannot read its free-page list (%v)", err)
	}
	le := binary.NativeEndian
	flags, count, overflow := le.Uint16(hdr[8:]), uint64(le.Uint16(hdr[10:])), uint64(le.Uint32(hdr[12:]))
	if flags&freelistFlag == 0 {
		return fmt.Errorf("has a damaged free-page list (page %d has flags %#x)", m.freelist, flags)
	}
	room := (overflow + 1) * m.pageSize
	entries := count
	if count == freelistCountFF {
		entries = le.Uint64(hdr[pageHeaderSize:]) + 1
	}
	if m.freelist+overflow >= m.pgid || entries > room/8 {
		return fmt.Errorf("has a damaged free-page list (%d entries in %d pages at page %d)", entries, overflow+1, m.freelist)
	}
	return nil
}

// checkResult is what the consistency check at Open found.
type checkResult struct {
	pages    int  // pages read
	complete bool // every page was read within the bound
	took     time.Duration
}

// Why the check reads the file itself: bbolt's Tx.Check reads the mapped
// file on a goroutine of its own, where a damaged page that points outside
// the file (a flipped key length, a wild page id) is a fatal fault rather
// than an error (seen in TestFlippedBytesNeverCrashTheStart), and it cannot
// be stopped at a time bound. checkFile makes the same checks as Tx.Check
// (every page of every bucket reached once, of the right type, not freed;
// keys in order within and across pages; the free list's pages valid and
// freed once; no page below the high-water mark both unreachable and
// unfreed) plus the bounds of every element, key and value, from
// ReadAt copies, where damage can only ever be an error, and it stops at
// its deadline. A file that passes has nothing bbolt's own reads could
// fault on.

// Page and element layout (bbolt internal/common/page.go).
const (
	branchFlag     = 0x01
	leafFlag       = 0x02
	elemSize       = 16 // branch: pos, ksize u32, pgid u64; leaf: flags, pos, ksize, vsize u32
	bucketLeafFlag = 0x01
	inBucketSize   = 16 // root pgid, sequence
)

// fileChecker walks a database file page by page.
type fileChecker struct {
	f        io.ReaderAt
	meta     boltMeta
	deadline time.Time
	reached  []bool // pages reached from the root, the metas and the free list
	freed    []bool // pages on the free list
	res      checkResult
	problems []error
}

// errCheckTime stops a walk at its deadline.
var errCheckTime = errors.New("check time is up")

// checkFile checks the database file at path as described above, within
// limit. It returns the problems found (at most a few), or nil; a walk cut
// short by the bound is reported in res.complete, not as a problem.
func checkFile(path string, limit time.Duration) (res checkResult, err error) {
	began := time.Now()
	defer func() { res.took = time.Since(began) }()
	f, err := os.Open(path)
	if err != nil {
		return res, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return res, err
	}
	meta, err := currentMeta(f, info.Size())
	if err != nil {
		return res, err
	}
	c := &fileChecker{f: f, meta: meta, deadline: began.Add(limit),
		reached: make([]bool, meta.pgid), freed: make([]bool, meta.pgid)}
	err = c.run()
	if errors.Is(err, errCheckTime) {
		return c.res, nil
	}
	if err == nil {
		c.res.complete = true
	}
	return c.res, errors.Join(append(c.problems, err)...)
}

// problem records one inconsistency; after a few, the walk stops.
func (c *fileChecker) problem(format string, args ...any) error {
	c.problems = append(c.problems, fmt.Errorf(format, args...))
	if len(c.problems) >= 5 {
		return errors.New("more problems not listed")
	}
	return nil
}

func (c *fileChecker) run() error {
	c.reached[0], c.reached[1] = true, true
	if c.meta.freelist != noFreelist {
		if err := c.readFreelist(); err != nil {
			return err
		}
	}
	if err := c.tree(c.meta.root, nil, nil); err != nil {
		return err
	}
	if c.meta.freelist == noFreelist {
		return nil // bbolt rebuilds the list from the tree: nothing to compare
	}
	for id := uint64(2); id < c.meta.pgid; id++ {
		if !c.reached[id] && !c.freed[id] {
			if err := c.problem("page %d: unreachable unfreed", id); err != nil {
				return err
			}
		}
	}
	return nil
}

// page reads the page at id with all its overflow pages, checking that
// they lie below the high-water mark and were not reached before.
func (c *fileChecker) page(id uint64) (buf []byte, flags, count uint16, err error) {
	if time.Now().After(c.deadline) {
		return nil, 0, 0, errCheckTime
	}
	if id < 2 || id >= c.meta.pgid {
		return nil, 0, 0, c.problem("page %d: outside the file's %d pages", id, c.meta.pgid)
	}
	ps := c.meta.pageSize
	hdr := make([]byte, pageHeaderSize)
	if _, err := c.f.ReadAt(hdr, int64(id*ps)); err != nil {
		return nil, 0, 0, fmt.Errorf("read page %d: %w", id, err)
	}
	le := binary.NativeEndian
	flags, count = le.Uint16(hdr[8:]), le.Uint16(hdr[10:])
	overflow := uint64(le.Uint32(hdr[12:]))
	if got := le.Uint64(hdr[0:]); got != id {
		return nil, 0, 0, c.problem("page %d: says it is page %d", id, got)
	}
	if id+overflow >= c.meta.pgid {
		return nil, 0, 0, c.problem("page %d: runs %d pages past the file's %d", id, overflow, c.meta.pgid)
	}
	for o := id; o <= id+overflow; o++ {
		switch {
		case c.reached[o]:
			return nil, 0, 0, c.problem("page %d: multiple references", o)
		case c.freed[o]:
			return nil, 0, 0, c.problem("page %d: reachable but freed", o)
		}
		c.reached[o] = true
	}
	buf = make([]byte, (overflow+1)*ps)
	if _, err := c.f.ReadAt(buf, int64(id*ps)); err != nil {
		return nil, 0, 0, fmt.Errorf("read page %d: %w", id, err)
	}
	c.res.pages += int(overflow + 1)
	return buf, flags, count, nil
}

// readFreelist reads the free-page list and marks its pages.
func (c *fileChecker) readFreelist() error {
	id := c.meta.freelist
	buf, flags, count, err := c.page(id)
	if err != nil || buf == nil {
		return err
	}
	if flags != freelistFlag {
		return c.problem("page %d: free-page list of type %#x", id, flags)
	}
	le := binary.NativeEndian
	start, n := uint64(pageHeaderSize), uint64(count)
	if count == freelistCountFF {
		n = le.Uint64(buf[start:])
		start += 8
	}
	if n > (uint64(len(buf))-start)/8 {
		return c.problem("page %d: free-page list of %d entries in %d bytes", id, n, len(buf))
	}
	for i := range n {
		free := le.Uint64(buf[start+8*i:])
		switch {
		case free < 2 || free >= c.meta.pgid:
			return c.problem("free-page list: page %d is outside the file's %d pages", free, c.meta.pgid)
		case c.freed[free]:
			return c.problem("page %d: already freed", free)
		}
		c.freed[free] = true
	}
	return nil
}

// element is one decoded branch or leaf element.
type element struct {
	flags uint32
	key   []byte
	value []byte // leaf only
	child uint64 // branch only
}

// elements decodes the count elements of a page held in buf, checking that
// every key and value lies inside the page.
func elements(buf []byte, branch bool, count uint16) ([]element, error) {
	if uint64(pageHeaderSize)+uint64(count)*elemSize > uint64(len(buf)) {
		return nil, fmt.Errorf("%d elements do not fit in %d bytes", count, len(buf))
	}
	le := binary.NativeEndian
	out := make([]element, count)
	for i := range out {
		at := uint64(pageHeaderSize + i*elemSize)
		e := buf[at : at+elemSize]
		var pos, ksize, vsize uint64
		if branch {
			pos, ksize = uint64(le.Uint32(e[0:])), uint64(le.Uint32(e[4:]))
			out[i].child = le.Uint64(e[8:])
		} else {
			out[i].flags = le.Uint32(e[0:])
			pos, ksize, vsize = uint64(le.Uint32(e[4:])), uint64(le.Uint32(e[8:])), uint64(le.Uint32(e[12:]))
		}
		end := at + pos + ksize + vsize
		if end > uint64(len(buf)) {
			return nil, fmt.Errorf("element %d runs past the page (%d > %d bytes)", i, end, len(buf))
		}
		out[i].key = buf[at+pos : at+pos+ksize]
		out[i].value = buf[at+pos+ksize : end]
	}
	return out, nil
}

// tree checks the bucket tree rooted at page id, whose keys must lie in
// [low, high) (nil: unbounded), and every bucket nested in it.
func (c *fileChecker) tree(id uint64, low, high []byte) error {
	buf, flags, count, err := c.page(id)
	if err != nil || buf == nil {
		return err
	}
	if flags != branchFlag && flags != leafFlag {
		return c.problem("page %d: invalid type %#x", id, flags)
	}
	elems, err := elements(buf, flags == branchFlag, count)
	if err != nil {
		return c.problem("page %d: %v", id, err)
	}
	return c.node(id, flags == branchFlag, elems, low, high)
}

// node checks the elements of one page (or inline bucket): key order and
// bounds, then each child page or nested bucket.
func (c *fileChecker) node(id uint64, branch bool, elems []element, low, high []byte) error {
	for i, e := range elems {
		switch {
		case i == 0 && low != nil && bytes.Compare(e.key, low) < 0:
			return c.problem("page %d: first key below its parent's", id)
		case i > 0 && bytes.Compare(elems[i-1].key, e.key) >= 0:
			return c.problem("page %d: key %d out of order", id, i)
		case high != nil && bytes.Compare(e.key, high) >= 0:
			return c.problem("page %d: key %d not below the next key of its parent", id, i)
		}
	}
	for i, e := range elems {
		var err error
		switch {
		case branch:
			next := high
			if i+1 < len(elems) {
				next = elems[i+1].key
			}
			err = c.tree(e.child, e.key, next)
		case e.flags&bucketLeafFlag != 0:
			err = c.bucket(id, e.value)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// bucket checks a nested bucket: a page tree, or an inline leaf held in
// its value.
func (c *fileChecker) bucket(parent uint64, value []byte) error {
	if len(value) < inBucketSize {
		return c.problem("page %d: bucket header of %d bytes", parent, len(value))
	}
	if root := binary.NativeEndian.Uint64(value); root != 0 {
		return c.tree(root, nil, nil)
	}
	inline := value[inBucketSize:]
	if len(inline) < pageHeaderSize {
		return c.problem("page %d: inline bucket of %d bytes", parent, len(inline))
	}
	le := binary.NativeEndian
	if flags := le.Uint16(inline[8:]); flags != leafFlag {
		return c.problem("page %d: inline bucket of type %#x", parent, flags)
	}
	elems, err := elements(inline, false, le.Uint16(inline[10:]))
	if err != nil {
		return c.problem("page %d: inline bucket: %v", parent, err)
	}
	for _, e := range elems {
		if e.flags&bucketLeafFlag != 0 {
			return c.problem("page %d: inline bucket holds a bucket", parent)
		}
	}
	return c.node(parent, false, elems, nil, nil)
}

// safely runs fn with memory faults turned into panics, and any panic into
// an error.
func safely(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reading it failed: %v", r)
		}
	}()
	return fn()
}

// checkPermissions keeps the database private: it is every account's key
// fingerprint and every game. A database file readable or writable by
// others is tightened to 0600 (it is this server's own file), and the
// change logged. A data directory open to others is only warned about,
// loudly: it may be shared (a mistaken /srv or /tmp), and changing the
// modes of a directory the operator chose can break other things.
func checkPermissions(path string, log *slog.Logger) {
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err == nil && info.Mode().Perm()&0o077 != 0 {
		log.Warn("DATA DIRECTORY IS OPEN TO OTHER USERS: others can see or replace the database, host key and admin socket; run chmod 700 on it",
			"dir", dir, "mode", fmt.Sprintf("%#o", info.Mode().Perm()))
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm()&0o077 == 0 {
		return
	}
	old := info.Mode().Perm()
	if err := os.Chmod(path, 0o600); err != nil {
		log.Warn("DATABASE IS READABLE BY OTHER USERS and could not be made private; run chmod 600 on it",
			"path", path, "mode", fmt.Sprintf("%#o", old), "err", err)
		return
	}
	log.Warn("database was readable by other users; its mode is now 0600", "path", path, "was", fmt.Sprintf("%#o", old))
}
