package coding

import cg "github.com/codebreakers/codebreakers/engine/coding"

// Rules explains The Coding for the rules screen, in the arcade's words
// (the engine keeps the text beside the rules it describes).
const Rules = cg.Rules
