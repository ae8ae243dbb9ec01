// A bounded memo of a string function: a file's rows give the same few keys, so each is worked out once; a file that
// gives endless different ones clears it at 1024 rather than grow without bound.
export function boundedMemo(fn: (key: string) => string, max = 1024): (key: string) => string {
  const seen = new Map<string, string>();
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
