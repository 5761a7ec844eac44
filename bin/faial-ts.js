#!/usr/bin/env node
import { main } from '../dist/bundle/main.js';

main(process.argv.slice(2));
