/**
 * The function, remembering its answer per argument object: for pure functions
 * over immutable nodes that shared subtrees reach many times. A WeakMap, so a
 * cache never keeps a tree alive.
 */
export function memoizedPerObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    const known = cache.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    cache.set(key, value);
    return value;
  };
}
