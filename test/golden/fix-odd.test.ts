import { describe, it } from 'vitest';
import { checkGolden, fixExamples } from './golden.js';

// The examples are split over two files so that both test workers share them.
describe('fix on the examples matches the golden output, and the repairs verify (odd)', () => {
  for (const example of fixExamples().filter((_, i) => i % 2 === 1)) {
    it(example, () => checkGolden(example), 300_000);
  }
});
