/** Exhaustiveness check for `switch` over discriminated unions. */
export function assertNever(x: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(x, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
}
