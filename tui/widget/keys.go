package widget

import "charm.land/bubbles/v2/key"

// Pair is one help entry for two bindings that work as a pair (↑/↓, ←/→):
// it matches the keys of both and shows keys and desc.
func Pair(a, b key.Binding, keys, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(append(append([]string{}, a.Keys()...), b.Keys()...)...), key.WithHelp(keys, desc))
}

// Help is k shown as keys and desc: a board names what a shared key does
// on it.
func Help(k key.Binding, keys, desc string) key.Binding {
	k.SetHelp(keys, desc)
	return k
}
