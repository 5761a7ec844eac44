import { describe, it } from 'vitest';
import { EXAMPLE_TIMEOUT_MS, checkExample, examples } from './expectations.js';

// The examples are split over two files so that both test workers share them.
describe('examples meet their stated expectation (even)', () => {
  for (const example of examples().filter((_, i) => i % 2 === 0)) {
    // a query no strategy decides spends the whole budget: minutes, on a loaded machine, in WebAssembly
    it(`${example.path}: ${example.expected}${example.options === null ? '' : ` with ${example.options.text}`}`, () => checkExample(example), EXAMPLE_TIMEOUT_MS);
  }
});
