// The index of the precompiled validators' store (scripts/build.mjs, dist/app/validators.txt) is keyed by a hash of
// the schema's JSON, the key validate.ts looks a validator up by: the index stays a few hundred bytes of the bundles,
// where the keys themselves are the schemas written out. A chunk of the store carries its whole key, which is compared
// before its code runs, so two keys hashing alike can never give one schema another's validator.

/** FNV-1a (32 bits) over the key's UTF-16 code units, as 8 hex digits. */
export function validatorKeyHash(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
