#!/usr/bin/env node
// The command's entry, committed so that installing the workspace links `compaction` before the CLI is built;
// the command itself is the build's dist/bin.js.
import '../dist/bin.js';
