// The command line from the sources, for tests that spawn the server through tsx (no build needed).
import { main } from '../../src/cli/main.js';

main(process.argv.slice(2));
