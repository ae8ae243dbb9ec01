// Request validators compiled ahead of time: scripts/build.mjs replaces this module in dist/ with Ajv standalone
// code for every operation's params, query and body, keyed by the schema's JSON, so neither Ajv's compiler nor
// the compile work loads at run time. Running the TypeScript directly (tests), it is empty and validate.ts compiles.
import type { ValidateFunction } from 'ajv';

export const PRECOMPILED: Record<string, ValidateFunction> | undefined = undefined;
