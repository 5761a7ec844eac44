import { describe, it } from 'vitest';
import { checkExample, CUDA_VERIFIED, examples } from './expectations.js';
import { isCudaPath } from '../../src/api/check.js';

// The examples are split over two files so that both test workers share them.
describe('examples meet their stated expectation (even)', () => {
  for (const example of examples().filter((_, i) => i % 2 === 0)) {
    // .cu examples wait for the typed core to encode machine integers (see expectations.ts)
    it.skipIf(isCudaPath(example.path) && !CUDA_VERIFIED)(`${example.path}: ${example.expected}`, () => checkExample(example));
  }
});
