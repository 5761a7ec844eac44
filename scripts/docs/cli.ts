/** `npm run docs:cli`: writes docs/cli.md from the command definitions (scripts/docs/cli-reference.ts). */
import { writeFileSync } from 'node:fs';
import { cliDefinition } from '../../src/cli/main.js';
import { cliReference } from './cli-reference.js';

const target = new URL('../../docs/cli.md', import.meta.url);
writeFileSync(target, cliReference(cliDefinition()));
console.log(`wrote ${target.pathname}`);
