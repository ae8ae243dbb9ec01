// coinop policy check and init: the raw arguments and flags, checked once into the options the run works with.
import { usageError } from '../../cli/errors.js';
import type { RawFlags } from '../../cli/options.js';
import { POLICY_INIT_FLAG_TABLE } from './flags.js';

export interface PolicyCheckOptions {
  /** The file to check; the context's policy file when not given. */
  file?: string;
}

export interface PolicyInitOptions {
  /** Replace a policy file the context has. */
  force: boolean;
}

export function parsePolicyCheckArgs(file: string | undefined): PolicyCheckOptions {
  if (file !== undefined && file.trim() === '') throw usageError('FILE: must be a path to a policy file');
  if (file === '-') throw usageError('FILE: give a path (a policy is checked as the file it is)');
  return { file };
}

export function parsePolicyInitOptions(raw: RawFlags): PolicyInitOptions {
  return { force: POLICY_INIT_FLAG_TABLE.read(raw).force };
}
