#!/usr/bin/env node
// CommonJS (bin/package.json says so): Node then runs this file without
// starting its ES module loader, which the command line does not use (its
// bundle is one CommonJS script) and which was a part of a small run.
'use strict';

// `--version` alone is answered before the command line is loaded: scripts and
// CI jobs ask it first, and loading commander and the options' modules would
// cost it a third of its time.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${require('../dist/bundle/version.cjs').version()}\n`);
} else {
  // the command line's bundle, compiled from V8's code cache made by the build (src/cli/load.ts)
  require('../dist/bundle/load.cjs').loadCommandLine().cli.main(argv);
}
