#!/usr/bin/env node
// `--version` alone is answered before the command line is loaded: scripts and
// CI jobs ask it first, and loading commander and the options' modules would
// cost it a third of its time.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { version } = await import('../dist/bundle/version.js');
  process.stdout.write(`${version()}\n`);
} else {
  // the command line's bundle, compiled from V8's code cache made by the build (src/cli/load.ts)
  const { loadCommandLine } = await import('../dist/bundle/load.js');
  loadCommandLine().cli.main(argv);
}
