package main

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// heapSites is the live heap of a heap dump (debug.WriteHeapDump) by the
// place its objects were allocated: for each site, the bytes of objects
// that hold pointers (what a collection scans), of those that do not, and
// the objects. The site of an object is its allocation stack, which the
// dump has for every object when runtime.MemProfileRate was 1 when it was
// allocated; objects allocated before are under "(unsampled)".
type heapSites map[string]*siteUse

// siteUse is what one allocation site holds.
type siteUse struct{ scan, noscan, objects int64 }

// writeHeapSites collects garbage, dumps the heap to path and reads the dump back.
func writeHeapSites(path string) (heapSites, error) {
	runtime.GC()
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("heap dump: %w", err)
	}
	debug.WriteHeapDump(f.Fd())
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("heap dump: %w", err)
	}
	sites, err := readHeapSites(bufio.NewReaderSize(f, 1<<20))
	_ = f.Close()
	if err != nil {
		return nil, fmt.Errorf("heap dump %s: %w", path, err)
	}
	return sites, nil
}

// mallocHeader is the header before an object of more than 512 bytes
// that holds pointers (it says where they are): the dump names the
// object by where its memory begins, its allocation sample by where the
// object does.
const mallocHeader = 8

// The records of a heap dump (runtime/heapdump.go, "go1.7 heap dump").
const (
	dumpEOF = iota
	dumpObject
	dumpOtherRoot
	dumpType
	dumpGoroutine
	dumpStackFrame
	dumpParams
	dumpFinalizer
	dumpItab
	dumpOSThread
	dumpMemStats
	dumpQueuedFinalizer
	dumpData
	dumpBSS
	dumpDefer
	dumpPanic
	dumpMemProf
	dumpAllocSample
)

// dumpReader reads the varints, strings and field lists of a heap dump.
type dumpReader struct {
	r   *bufio.Reader
	err error
}

func (d *dumpReader) int() uint64 {
	if d.err != nil {
		return 0
	}
	var v uint64
	v, d.err = readUvarint(d.r)
	return v
}

func readUvarint(r *bufio.Reader) (uint64, error) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, nil
		}
	}
}

// skip reads n ints.
func (d *dumpReader) skip(n int) {
	for range n {
		d.int()
	}
}

// bytes reads a length and that many bytes, keeping them only if keep.
func (d *dumpReader) bytes(keep bool) string {
	n := d.int()
	if d.err != nil {
		return ""
	}
	if !keep {
		_, d.err = d.r.Discard(int(n))
		return ""
	}
	b := make([]byte, n)
	_, d.err = io.ReadFull(d.r, b)
	return string(b)
}

// fields reads a field list and returns the end of its last pointer (0
// without pointers): the bytes of an object the collector scans.
func (d *dumpReader) fields() int64 {
	var end int64
	for d.err == nil {
		if d.int() == 0 {
			break
		}
		end = max(end, int64(d.int())+8)
	}
	return end
}

// readHeapSites reads a heap dump and sums its objects by allocation site.
func readHeapSites(r *bufio.Reader) (heapSites, error) {
	const header = "go1.7 heap dump\n"
	h := make([]byte, len(header))
	if _, err := io.ReadFull(r, h); err != nil || string(h) != header {
		return nil, fmt.Errorf("not a heap dump (%q, %v)", h, err)
	}
	type object struct{ size, scan int64 }
	objects := map[uint64]object{}
	stacks := map[uint64]string{}  // bucket → site
	sampled := map[uint64]uint64{} // object → bucket
	d := &dumpReader{r: r}
	for d.err == nil {
		switch tag := d.int(); tag {
		case dumpEOF:
			sites := heapSites{}
			for addr, o := range objects {
				site := "(unsampled)"
				if b, ok := sampled[addr]; ok {
					site = stacks[b]
				} else if b, ok := sampled[addr+mallocHeader]; ok && o.scan > 0 {
					site = stacks[b] // the object begins after its header
				}
				u := sites[site]
				if u == nil {
					u = &siteUse{}
					sites[site] = u
				}
				u.objects++
				u.scan += o.scan
				u.noscan += o.size - o.scan
			}
			return sites, nil
		case dumpObject:
			addr := d.int()
			size := int64(d.int())
			if d.err == nil {
				_, d.err = d.r.Discard(int(size))
			}
			objects[addr] = object{size: size, scan: d.fields()}
		case dumpOtherRoot:
			d.bytes(false)
			d.int()
		case dumpType:
			d.skip(2)
			d.bytes(false)
			d.int()
		case dumpGoroutine:
			d.skip(8)
			d.bytes(false)
			d.skip(4)
		case dumpStackFrame:
			d.skip(3)
			d.bytes(false)
			d.skip(3)
			d.bytes(false)
			d.fields()
		case dumpParams:
			d.skip(4)
			d.bytes(false)
			d.bytes(false)
			d.int()
		case dumpFinalizer, dumpQueuedFinalizer:
			d.skip(5)
		case dumpItab:
			d.skip(2)
		case dumpOSThread:
			d.skip(3)
		case dumpMemStats:
			d.skip(24 + 256 + 1)
		case dumpData, dumpBSS:
			d.int()
			d.bytes(false)
			d.fields()
		case dumpDefer:
			d.skip(7)
		case dumpPanic:
			d.skip(6)
		case dumpMemProf:
			bucket := d.int()
			d.int()
			n := int(d.int())
			frames := make([]string, 0, n)
			for range n {
				frames = append(frames, d.bytes(true))
				d.bytes(false)
				d.int()
			}
			d.skip(2)
			stacks[bucket] = allocSite(frames)
		case dumpAllocSample:
			addr := d.int()
			sampled[addr] = d.int()
		default:
			return nil, fmt.Errorf("unknown record %d", tag)
		}
	}
	if errors.Is(d.err, io.EOF) {
		return nil, errors.New("the dump ends before its end record")
	}
	return nil, d.err
}

// allocSite names an allocation by its first two frames outside the
// runtime and the standard library's growing and copying helpers, which
// say where, not why.
func allocSite(frames []string) string {
	var site []string
	for _, f := range frames {
		if len(site) == 0 && helperFrame(f) {
			continue
		}
		site = append(site, f)
		if len(site) == 2 {
			break
		}
	}
	if len(site) == 0 {
		site = frames[:min(len(frames), 6)]
	}
	return strings.Join(site, " < ")
}

// helperFrame is a frame that allocates on its caller's behalf.
func helperFrame(f string) bool {
	for _, p := range []string{"runtime.", "internal/", "slices.", "strings.", "bytes.", "maps.", "reflect.", "sync.", "fmt.", "strconv.", "unicode/", "encoding/binary."} {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}

// growth is what after holds beyond before, site by site, largest
// scanned bytes first.
func (after heapSites) growth(before heapSites) []siteGrowth {
	var out []siteGrowth
	for site, a := range after {
		u := *a
		if b := before[site]; b != nil {
			u.scan -= b.scan
			u.noscan -= b.noscan
			u.objects -= b.objects
		}
		if u.scan != 0 || u.noscan != 0 || u.objects != 0 {
			out = append(out, siteGrowth{site, u})
		}
	}
	slices.SortFunc(out, func(x, y siteGrowth) int {
		return cmp.Or(cmp.Compare(y.scan, x.scan), cmp.Compare(y.noscan, x.noscan), strings.Compare(x.site, y.site))
	})
	return out
}

// siteGrowth is one site's growth.
type siteGrowth struct {
	site string
	siteUse
}
