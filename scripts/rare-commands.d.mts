// Types of scripts/rare-commands.mjs, for the tests that import it.
export const RARE_COMMAND_DIRS: string[];
export const CORE_COMMAND_GROUPS: string[];
