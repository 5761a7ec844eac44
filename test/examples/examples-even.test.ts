import { describe, it } from 'vitest';
import { checkExample, examples } from './expectations.js';

// The examples are split over two files so that both test workers share them.
describe('examples meet their stated expectation (even)', () => {
  for (const example of examples().filter((_, i) => i % 2 === 0)) {
    it(`${example.path}: ${example.expected}`, () => checkExample(example));
  }
});
