#!/usr/bin/env node
import { runCli } from './cli.js';

// The exit code is set rather than forced, so pending output is flushed first; a server keeps running.
runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
