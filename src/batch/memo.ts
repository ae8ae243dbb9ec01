// A bounded memo of a function of a string: a file's rows give the same few keys (a column's name, a profile's), so
// each is worked out once; a file that gives endless different ones clears it at 1024 rather than grow without bound.
export function boundedMemo<T>(fn: (key: string) => T, max = 1024): (key: string) => T {
  const seen = new Map<string, T>();
  return (key) => {
    let k = seen.get(key);
    if (k === undefined) {
      if (seen.size >= max) seen.clear();
      k = fn(key);
      seen.set(key, k);
    }
    return k;
  };
}
