// Request validators compiled ahead of time: scripts/build.mjs replaces this module in dist/ with the index of a store
// of Ajv standalone code (dist/app/validators.txt) for every operation's params, query and body, keyed by the schema's
// JSON, so neither Ajv's compiler nor the compile work loads at run time, and a start reads only the validators it
// uses. Running the TypeScript directly (tests), there is none and validate.ts compiles.
import type { ValidateFunction } from 'ajv';

/** The validator built for the schema whose JSON is `key`, or undefined (validate.ts then compiles one). */
export function precompiledValidator(_key: string): ValidateFunction | undefined {
  return undefined;
}
